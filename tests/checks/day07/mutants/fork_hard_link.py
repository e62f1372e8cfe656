"""E5: fork makes the child with `os.link(parent, child)` ("a copy that costs
nothing") and cuts the child down to the prefix with `os.truncate(child, size)`.

A hard link is not a copy: both names are the same file (same inode). Truncating the
child truncates the parent, and the fork event appended to the child lands in the
parent too. (It also shares the parent's writer lock, so a recovery fork made
during resume is refused.)
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "parent-untouched")


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
    os.link(parent, child)
    os.truncate(child, prefix_bytes)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
