"""E5: fork copies the prefix right but writes the fork event with Python-style
field names: `{"parent": ..., "at_seq": N}`.

The fork event's fields are fixed: `from` (the parent id) and `atSeq`. Other code
(listing lineage, a later day's tools, another implementation reading the same
logs) looks for those names.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-copies-prefix", "missing-line")


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
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", parent=parent_id, at_seq=at_seq)
    return child_id
