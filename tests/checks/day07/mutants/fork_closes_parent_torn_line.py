"""E5: fork copies the prefix right and then "protects" the parent: if its last line
has no newline (torn), it appends one, so nothing can ever be glued onto the torn
line.

On a clean parent it writes nothing. On a damaged one - which is what a recovery fork
is made from - it changes the file that was to stay byte-identical for the user to
inspect, and turns a torn tail into a complete-looking bad line. A fork never writes
to its parent, damaged or not.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "parent-untouched")


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    prefix_bytes = clean_prefix_size(parent, at_seq)
    if prefix_bytes is None:
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}; fork points: {listed_fork_points(parent)}")

    child_id = fresh_session_id(sessions_dir)
    child = session_path(sessions_dir, child_id)
    _copy_prefix(parent, child, prefix_bytes)
    with open(parent, "r+b") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) != b"\n":
            handle.write(b"\n")
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
