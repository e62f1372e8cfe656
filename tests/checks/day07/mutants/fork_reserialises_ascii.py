r"""E5: fork copies the prefix by reading the parent's events and writing each one
back out with `json.dumps(event.to_dict())` - "same fields, same order, same seq".

`json.dumps` escapes every non-ASCII character by default (`"\u4f60"` for 你), so a
line with CJK text or an emoji is no longer the same bytes as the parent's. The
prefix is copied byte for byte: a fork re-serialises nothing.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix", "damaged-then-continue", "missing-line")

import json


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
    with open(child, "x", encoding="utf-8") as out:
        for event in read_events(parent).events:
            if event.seq > at_seq:
                break
            out.write(json.dumps(event.to_dict()) + "\n")
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
