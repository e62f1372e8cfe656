"""E5: like a student who read "the parent's mtime must not change": fork rewrites
the parent with its own bytes (as in the scaffold's "keep the two in step", undone)
and then puts its access and modification times back with
`os.utime(parent, ns=(atime_ns, mtime_ns))`.

Same bytes, same size, same inode, same mtime to the nanosecond - and still written:
for a moment the parent was empty, and a crash then would have lost it. Only its
ctime (or watching the writes) shows it. A fork never opens the parent for writing.
"""
TARGET = "mca/session/fork.py"
FAILS = ("parent-untouched",)


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
    before = os.stat(parent)
    data = parent.read_bytes()
    _copy_prefix(parent, child, prefix_bytes)
    os.truncate(parent, prefix_bytes)
    with open(parent, "r+b") as handle:
        handle.seek(0)
        handle.write(data)
    os.utime(parent, ns=(before.st_atime_ns, before.st_mtime_ns))
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
