"""E5: fork measures the prefix by reading the parent as text and adding up
`len(line)` up to event N, then copies that many bytes of the file.

`len()` of a str counts characters, and a CJK character is 3 bytes in UTF-8, an
emoji 4: on a non-ASCII log the count is too small, the copy stops in the middle of
a line, and the fork event cannot follow it (or, in a looser writer, is glued onto
it). Offsets in a file are byte offsets.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "fork-copies-prefix", "missing-line", "parent-untouched")

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
    chars = 0
    with open(parent, encoding="utf-8") as text:
        for line in text:
            chars += len(line)
            if json.loads(line)["seq"] == at_seq:
                break
    with open(parent, "rb") as source, open(child, "xb") as target:
        target.write(source.read(chars))
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
