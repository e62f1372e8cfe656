'''rollback reads the snapshots after SEQ with a comprehension of its own, keeps the user's
files in a set, and undoes the changes by index from the end.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ()


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    changes = [e for e in events if e.seq > to_seq and e.type == "snapshot"]
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    last_after = {e.fields["path"]: e.fields.get("after") for e in changes}
    keep = set()
    for path, after in last_after.items():
        if digest_of(read_bytes(store.target(path))) != after and not (ask and ask(path)):
            keep.add(path)
    store.note_rollback(to_seq, sorted(last_after), sorted(keep), command)
    for i in range(len(changes) - 1, -1, -1):
        event = changes[i]
        if event.fields["path"] in keep:
            continue
        target, old = store.target(event.fields["path"]), store.get(event.fields.get("hash"))
        if read_bytes(target) != old:
            dirs = event.fields.get("dirs") or []
            store.save(target, lambda: store.restore_file(target, old, dirs))
    for path in sorted(last_after):
        if path in keep:
            rolled.kept.append(path)
        elif store.target(path).is_file():
            rolled.restored.append(path)
        else:
            rolled.removed.append(path)
    return rolled
