'''/undo as an editor's undo stack: each /undo pops the round it undid, so a second /undo undoes
the round before it instead of putting back what the first one undid.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("rollback-undoable",)


def last_round_start(events):
    rounds = []  # [start seq, changed files?]
    current = None
    for event in events:
        if is_round_start(event):
            if event.type == "rollback" and event.fields.get("command") == "/undo":
                undone = event.fields.get("to_seq") or 0
                rounds = [r for r in rounds if r[0] < undone]  # popped: the round it undid, and itself
                current = None
                continue
            current = [event.seq, False]
            rounds.append(current)
        elif event.type == "snapshot":
            if current is None:
                current = [0, False]
                rounds.append(current)
            current[1] = True
    changed = [r for r in rounds if r[1]]
    return changed[-1][0] if changed else None
