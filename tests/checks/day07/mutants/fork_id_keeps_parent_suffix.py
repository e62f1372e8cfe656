"""E5: the child's id is the fork's time with the parent's four hex digits ("so a fork
shows which session it came from, and sorts by when it was made").

Two forks of one parent in the same second get the same id: the second one cannot make
its file, or (with another open mode) overwrites the first child.
"""
TARGET = "mca/session/fork.py"
FAILS = ("parent-untouched",)

from .ids import new_session_id


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    prefix_bytes = clean_prefix_size(parent, at_seq)
    if prefix_bytes is None:
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}; fork points: {listed_fork_points(parent)}")
    child_id = new_session_id()[:-4] + parent_id[-4:]
    child = session_path(sessions_dir, child_id)
    with open(parent, "rb") as source, open(child, "wb") as target:
        target.write(source.read(prefix_bytes))
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
