'''Every file is put back whatever it holds now: a change the user made since the agent's
last change to it is overwritten without a question, on a terminal or not.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("user-change-protected",)


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    paths = sorted({event.fields["path"] for event in changes})
    store.note_rollback(to_seq, paths, [], command)
    for event in reversed(changes):
        target = store.target(event.fields["path"])
        old = store.get(event.fields.get("hash"))
        if read_bytes(target) != old:
            store.save(target, lambda: store.restore_file(target, old, event.fields.get("dirs") or []))
    for path in paths:
        (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled
