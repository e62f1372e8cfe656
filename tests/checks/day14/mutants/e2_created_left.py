'''A snapshot that says the file did not exist is skipped ("there is nothing to restore"):
every file the agent created after SEQ is left behind.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("undo-last-round", "rollback-to-seq", "created-file-removed", "rollback-undoable")


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    newest = {}
    for event in changes:
        newest[event.fields["path"]] = event
    for path, event in newest.items():
        now = digest_of(read_bytes(store.target(path)))
        if now != event.fields.get("after") and (ask is None or not ask(path)):
            rolled.kept.append(path)
    store.note_rollback(to_seq, sorted(newest), sorted(rolled.kept), command)
    for event in reversed(changes):
        path = event.fields["path"]
        if path in rolled.kept or event.fields.get("hash") is None:
            continue  # no old content: nothing to put back
        target = store.target(path)
        old = store.get(event.fields.get("hash"))
        if read_bytes(target) != old:
            store.save(target, lambda: store.restore_file(target, old, event.fields.get("dirs") or []))
    for path in sorted(newest):
        if path not in rolled.kept:
            (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled
