"""E5: fork copies the whole parent (`shutil.copyfile`) and adds the fork event:
"the fork event says where the new branch starts".

The child must hold only the lines up to N: the copied events after N are the
parent's future, the fork event repeats a seq that is already there, and a
recovery fork from a damaged log carries the damage (and its torn line) along.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-copies-prefix", "missing-line", "parent-untouched")

import shutil


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
    shutil.copyfile(parent, child)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
