'''Every file the session ever snapshotted is put as it was at SEQ, "to be sure": a file the
agent changed only before SEQ is written again with the bytes it already has, so its inode
and modification time change though nothing should have touched it.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("untouched-untouched",)


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
            store.save(target, lambda: store.restore_file(target, old, event.fields.get("dirs") or []))
    earlier = {e.fields["path"] for e in events if e.type == "snapshot" and e.seq <= to_seq} - set(newest)
    for path in sorted(earlier):  # as they were at SEQ, which is as they are
        target = store.target(path)
        if target.is_file():
            store.restore_file(target, read_bytes(target), [])
    for path in sorted(newest):
        if path not in rolled.kept:
            (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled
