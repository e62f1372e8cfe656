"""E5: fork holds the parent's writer lock while it copies ("so nobody appends
meanwhile").

A fork only reads the parent: lines up to N are complete on disk. Taking the lock
refuses the fork of a session still open in another process, and every recovery fork
of resume, which holds that lock itself.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "parent-untouched")

from .log import writer_lock


def fork(sessions_dir: Path | str, parent_id: str, at_seq: int) -> str:
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    with writer_lock(parent):
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
