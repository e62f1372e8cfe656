"""E5: fork copies the prefix right and appends the fork event through a SessionLog
it never closes (`log = SessionLog.open_append(...)`, no `with`).

The log's file descriptor stays open, and with it the session's writer lock, for as
long as the process lives. `fork ID N` from the CLI exits at once and looks fine;
but resume makes its recovery fork in the same process and then opens the child to
continue - and finds it locked "by another process".
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line")


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
    log = SessionLog.open_append(child, last_seq=at_seq)
    log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
