'''rollback decides about a file when it first meets it, walking the snapshots newest first
(that first one is the agent's last change to it), and logs the rollback before the walk.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ()


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    paths = sorted({e.fields["path"] for e in changes})
    store.note_rollback(to_seq, paths, [], command)
    decided = {}
    for event in sorted(changes, key=lambda e: e.seq, reverse=True):
        path = event.fields["path"]
        target = store.target(path)
        if path not in decided:
            ours = digest_of(read_bytes(target)) == event.fields.get("after")
            decided[path] = ours or (ask is not None and ask(path))
            if not decided[path]:
                rolled.kept.append(path)
        if not decided[path]:
            continue
        old = store.get(event.fields.get("hash"))
        if read_bytes(target) == old:
            continue
        store.save(target, lambda: store.restore_file(target, old, list(event.fields.get("dirs") or ())))
    for path in paths:
        if decided.get(path):
            (rolled.restored if store.target(path).exists() else rolled.removed).append(path)
    rolled.kept.sort()
    return rolled
