"""Fork rebuilds the prefix by appending each parent event to a new log: same seq,
new timestamps, so the copy is not byte for byte (the recovery forks of resume neither)."""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix", "damaged-then-continue", "dangling-tool-call", "missing-line")


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    events = read_events(parent).events
    if at_seq not in fork_points(events):
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}")
    with SessionLog.create(sessions_dir) as log:
        for event in events:
            if event.seq > at_seq:
                break
            log.append(event.type, **event.fields)
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
        return log.session_id
