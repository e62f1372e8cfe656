"""E5: fork reads the parent into memory, writes the prefix to the child, and writes
the parent back from memory ("so the parent keeps its full history, whatever
happened") - with exactly the same bytes.

The parent ends up byte-identical, but it was rewritten: opened with truncation,
written again, its mtime changed - and a crash in the middle of that write would
have destroyed it, which is exactly what an append-only log exists to avoid. A fork
only ever reads the parent.
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
    data = parent.read_bytes()
    with open(child, "xb") as target:
        target.write(data[:prefix_bytes])
    parent.write_bytes(data)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
