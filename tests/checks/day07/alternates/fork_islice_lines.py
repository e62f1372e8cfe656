"""A correct E5 written differently: the parent is read as binary lines and the
first N of them are copied with `itertools.islice` (line N holds seq N, because the
provided check has already read the prefix as clean); the copy's size is compared
with the prefix size before the fork event is added.
"""
TARGET = "mca/session/fork.py"
FAILS = ()

from itertools import islice


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
    with open(parent, "rb") as source, open(child, "xb") as target:
        copied = 0
        for line in islice(source, at_seq):
            target.write(line)
            copied += len(line)
    if copied != prefix_bytes:
        raise SessionError(f"{parent.name} changed while it was being forked")
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
