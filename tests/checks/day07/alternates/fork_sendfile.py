"""A correct E5 written differently: the prefix is copied in the kernel with
`os.sendfile`, from offset 0, looping until exactly the prefix's bytes are in the
new file (sendfile may send less than asked).
"""
TARGET = "mca/session/fork.py"
FAILS = ()


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
    source = os.open(parent, os.O_RDONLY)
    try:
        target = os.open(child, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            sent = 0
            while sent < prefix_bytes:
                step = os.sendfile(target, source, sent, prefix_bytes - sent)
                if step == 0:
                    raise SessionError(f"{parent.name} shrank while it was being forked")
                sent += step
        finally:
            os.close(target)
    finally:
        os.close(source)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
