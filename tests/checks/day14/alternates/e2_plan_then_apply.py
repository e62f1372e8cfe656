'''rollback plans first, then writes each file once: its target is the old content of its
first snapshot after SEQ, and its folders those of every snapshot that created it; the files
are written newest-created first (a new file's folders are inside or beside older ones).'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ()


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    first, last, made = {}, {}, {}
    for event in changes:
        path = event.fields["path"]
        first.setdefault(path, event)
        last[path] = event
        made.setdefault(path, []).extend(event.fields.get("dirs") or [])
    for path in first:
        if digest_of(read_bytes(store.target(path))) != last[path].fields.get("after"):
            if ask is None or not ask(path):
                rolled.kept.append(path)
    store.note_rollback(to_seq, sorted(first), sorted(rolled.kept), command)
    order = sorted(first, key=lambda p: first[p].seq, reverse=True)  # the newest-made first: its folders are inside older ones
    for path in order:
        if path in rolled.kept:
            continue
        target = store.target(path)
        old = store.get(first[path].fields.get("hash"))
        if read_bytes(target) != old:
            store.save(target, lambda: store.restore_file(target, old, [] if old is not None else made[path]))
        (rolled.restored if old is not None else rolled.removed).append(path)
    rolled.restored.sort()
    rolled.removed.sort()
    return rolled
