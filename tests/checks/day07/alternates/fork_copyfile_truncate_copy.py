"""A correct E5 written differently: the whole parent is copied with
`shutil.copyfile`, then the COPY is cut back to the prefix with `os.truncate` -
only the new file is ever opened for writing; the parent is only read.
"""
TARGET = "mca/session/fork.py"
FAILS = ()

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
    os.truncate(child, prefix_bytes)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
