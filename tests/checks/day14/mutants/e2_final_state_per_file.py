'''Each file is written once, straight to its state at SEQ, files taken by their newest
change: a folder holding two new files, the first edited after the second, is left behind.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("rollback-to-seq", "created-file-removed")


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None, changes=len(changes))
    if not changes:
        return rolled
    newest, first = {}, {}
    for event in changes:
        newest[event.fields["path"]] = event
        first.setdefault(event.fields["path"], event)
    for path, event in newest.items():
        now = digest_of(read_bytes(store.target(path)))
        if now != event.fields.get("after") and (ask is None or not ask(path)):
            rolled.kept.append(path)
    order = sorted(newest, key=lambda path: newest[path].seq, reverse=True)  # the newest changed first
    undo = [(store.target(path), store.get(first[path].fields.get("hash")), first[path].fields.get("dirs") or [])
            for path in order if path not in rolled.kept]
    store.note_rollback(to_seq, sorted(newest), sorted(rolled.kept), command)
    written = set()
    for target, old, dirs in undo:
        if read_bytes(target) != old:
            store.save(target, lambda: store.restore_file(target, old, dirs))
            written.add(store.relative(target))
    for path in sorted(written):
        (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled
