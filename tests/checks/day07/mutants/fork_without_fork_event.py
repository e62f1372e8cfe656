"""E5: fork copies the prefix byte for byte and stops there ("the copy is the
fork") - no `fork` event.

Without the fork event the new session does not say where it came from: it looks
like an unrelated session that happens to share a history, and "forked from X at
seq N" is lost for `/log`, `--list` and the user. The child is the prefix plus one
`fork` event with from, atSeq and seq N + 1.
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
    return child_id
