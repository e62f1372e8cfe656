'''No user-change check for a file the agent created after SEQ ("ours to delete"): the
user's edits to it are deleted with it, with no question and no line.'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("user-change-protected",)


def rollback(store: SnapshotStore, events: list[Event], to_seq: int, ask: Ask | None = None,
             command: str = "/rollback") -> Rolled:
    """Put every file changed after event ``to_seq`` back as it was at ``to_seq``.

    ``events`` are the session's log; ``ask(path)`` says whether a file the user changed since
    the agent's last change to it may be overwritten (None: nobody can be asked, so it is not).
    The ``rollback`` event is logged (``store.note_rollback``) before the first write, and every
    write goes through ``store.save``, so the rollback can itself be undone.
    """
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None, changes=len(changes))
    if not changes:
        return rolled  # nothing changed since: nothing to do, nothing to log
    newest: dict[str, Event] = {}
    for event in changes:
        newest[event.fields["path"]] = event  # the last change made to each file
    for path, event in newest.items():
        now = digest_of(read_bytes(store.target(path)))
        created = next(e for e in changes if e.fields["path"] == path).fields.get("hash") is None
        if not created and now != event.fields.get("after") and (ask is None or not ask(path)):  # ours: it goes
            rolled.kept.append(path)  # changed by someone else since: theirs, unless they say so
    undo = []  # (the file, its old bytes or None: it did not exist, the folders made for it), newest first
    for event in reversed(changes):  # each change is undone on what the change after it left
        if event.fields["path"] not in rolled.kept:
            undo.append((store.target(event.fields["path"]), store.get(event.fields.get("hash")),
                         event.fields.get("dirs") or []))  # every old content found before anything is written
    store.note_rollback(to_seq, sorted(newest), sorted(rolled.kept), command)
    written = set()
    for target, old, dirs in undo:
        if read_bytes(target) != old:  # a file already as it was is not written again
            store.save(target, lambda: store.restore_file(target, old, dirs))
            written.add(store.relative(target))
    for path in sorted(written):
        (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled
