"""E5: fork copies the prefix right and then marks the parent as "just used" with
`parent.touch()`, so `ls -t` shows the session a branch was taken from next to the
branch.

`Path.touch()` on an existing file sets its mtime to now: no byte changes, but the
parent's metadata does, and anything that goes by mtime (backups, sync tools, a
"modified since" check) now believes the session was written. A fork leaves the
parent exactly as it was: bytes, size, inode and mtime.
"""
TARGET = "mca/session/fork.py"
FAILS = ("parent-untouched",)


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
    parent.touch()
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
