"""E5: fork copies the parent's lines with a slice, `lines[:at_seq + 1]` ("seq starts
at 1, lists at 0"), then adds the fork event.

Lines are 1-based and slices exclusive: `lines[:N]` is events 1..N. This copies event
N + 1 as well, so the child's line N + 1 is the parent's next event and the fork
event repeats its seq; reading the child stops there and the new session's events
are lost behind a bad line.
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
    lines = parent.read_bytes().splitlines(keepends=True)
    with open(child, "xb") as target:
        target.write(b"".join(lines[:at_seq + 1]))
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
