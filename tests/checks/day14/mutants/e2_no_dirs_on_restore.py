'''The old bytes written straight into the file's path, without making its folders: when a
rollback removed a new file and its folders, undoing that rollback cannot put the file back.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ('rollback-to-seq', 'rollback-undoable')
ADD = ("put_bytes",)


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
        if path in rolled.kept:
            continue
        target = store.target(path)
        old = store.get(event.fields.get("hash"))
        if read_bytes(target) != old:
            store.save(target, lambda: put_bytes(store, target, old, event.fields.get("dirs") or []))
    for path in sorted(newest):
        if path not in rolled.kept:
            (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled


def put_bytes(store, target, old, dirs):
    if old is None:
        store.restore_file(target, None, dirs)
    else:
        target.write_bytes(old)  # the file was there before: so is its folder
