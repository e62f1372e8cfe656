"""fork refuses any parent that does not read cleanly to its end ("never build on a
log that cannot be trusted").

But the lines up to a fork point before the damage are sound, and forking them is how a
crashed session carries on: with this, a log whose last line a crash cut can never be
continued, by `fork` or by a resume's recovery fork.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix", "parent-untouched", "damaged-then-continue", "missing-line")


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    if read_events(parent).damaged:
        raise ForkError(f"{parent_id} is damaged; fork points: {listed_fork_points(parent)}")
    prefix_bytes = clean_prefix_size(parent, at_seq)
    if prefix_bytes is None:
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}; fork points: {listed_fork_points(parent)}")
    child_id = fresh_session_id(sessions_dir)
    child = session_path(sessions_dir, child_id)
    _copy_prefix(parent, child, prefix_bytes)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
