"""A correct E1, E4 and E5 written differently from the reference: fork points
through a filter helper, a fork that counts lines instead of bytes and words its
refusal its own way, and a recorder that matches on event classes."""
TARGETS = {
    "fork_points": "mca/session/fork.py", "_is_clean": "mca/session/fork.py", "fork": "mca/session/fork.py",
    "SessionRecorder": "mca/session/recorder.py",
}
ADD = ("_is_clean",)
FAILS = ()


def fork_points(events):
    return [event.seq for event in filter(_is_clean, events)]


def _is_clean(event):
    message = event.message or {}
    if message.get("role") == "user":
        return True
    return message.get("role") == "assistant" and len(message.get("tool_calls") or []) == 0


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"there is no {parent_id} here ({sessions_dir})")
    events = read_events(parent).events
    allowed = fork_points(events)
    if at_seq not in allowed:
        raise ForkError(f"pick one of {allowed}; {at_seq} is not a clean cut")
    count = next(index for index, event in enumerate(events, start=1) if event.seq == at_seq)
    with open(parent, "rb") as source:
        head = [source.readline() for _ in range(count)]
    new_id = fresh_session_id(sessions_dir)
    new_path = session_path(sessions_dir, new_id)
    with open(new_path, "xb") as out:
        out.writelines(head)
    log = SessionLog.open_append(new_path, at_seq)
    try:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    finally:
        log.close()
    return new_id


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []

    def handle(self, event):
        def now(kind, **fields):
            self.written.append(self.log.append(kind, **fields))

        match event:
            case MessageAdded():
                now("message", message=event.message)
            case UsageReported():
                now("usage", input_tokens=event.input_tokens, output_tokens=event.output_tokens)
            case ToolFinished():
                now("tool_end", id=event.id, name=event.name, ok=event.ok, ms=event.ms,
                    chars=event.chars, truncated=event.truncated, blocked_by=event.blocked_by)
            case ErrorOccurred():
                now("error", message=event.message, where=event.where)

    def end_turn(self):
        pass
