"""E5: fork copies the prefix right and writes the fork event line itself, with a
timestamp from `datetime.now().astimezone().isoformat()` - local time with its
offset.

Every `ts` in a log is UTC (`...Z`): logs move between machines and time zones, and
events are compared by time across sessions. (SessionLog.append writes the line
right, with seq N + 1 and a UTC ts.)
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix",)

import json
from datetime import datetime


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
    record = {"seq": at_seq + 1, "ts": datetime.now().astimezone().isoformat(timespec="milliseconds"),
              "type": "fork", "from": parent_id, "atSeq": at_seq}
    with open(child, "ab") as out:
        out.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
    return child_id
