'''The old content put back as text (decoded as UTF-8, undecodable bytes replaced): a binary
file comes back damaged, and every file is rewritten in the platform's text mode.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("undo-last-round", "rollback-to-seq", "user-change-protected")
ADD = ("put_text",)


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
            store.save(target, lambda: put_text(store, target, old, event.fields.get("dirs") or []))
    for path in sorted(newest):
        if path not in rolled.kept:
            (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled


def put_text(store, target, old, dirs):
    if old is None:
        store.restore_file(target, None, dirs)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(old.decode("utf-8", errors="replace"), encoding="utf-8")
