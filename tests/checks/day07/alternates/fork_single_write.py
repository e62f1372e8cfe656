"""E5, correct: fork writes the copied prefix and a hand-made fork line with one
`os.write` to a new file created with O_EXCL.
"""
TARGET = "mca/session/fork.py"
FAILS = ()

import json
from .log import utc_timestamp


def fork(sessions_dir: Path | str, parent_id: str, at_seq: int) -> str:
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    size = clean_prefix_size(parent, at_seq)
    if size is None:
        raise ForkError(f"{parent_id} cannot be forked at {at_seq}; try one of: {listed_fork_points(parent)}")
    with open(parent, "rb") as source:
        prefix = source.read(size)
    fork_line = json.dumps({"seq": at_seq + 1, "ts": utc_timestamp(), "type": "fork",
                            "from": parent_id, "atSeq": at_seq}, ensure_ascii=False) + "\n"
    data = prefix + fork_line.encode("utf-8")
    child_id = fresh_session_id(sessions_dir)
    fd = os.open(session_path(sessions_dir, child_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if fsync_requested():
            os.fsync(fd)
    finally:
        os.close(fd)
    if fsync_requested():
        fsync_directory(sessions_dir)
    return child_id
