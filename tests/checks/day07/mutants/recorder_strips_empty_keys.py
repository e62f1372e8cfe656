"""E1: the recorder leaves empty values ("", None, []) out of the messages it logs.

Models send `content: ""` next to their tool calls and an empty file reads as "";
replay must give back each message exactly as it was, so the log keeps every key.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)


class SessionRecorder:
    """Writes the log events of one session, in the order the agent emits them."""

    def __init__(self, log: SessionLog) -> None:
        self.log = log
        self.written: list[Event] = []

    def handle(self, event: AgentEvent) -> None:
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        if kind == "message":
            # keep the log small: empty keys carry no information
            fields = {"message": {k: v for k, v in fields["message"].items() if v not in (None, "", [])}}
        self.written.append(self.log.append(kind, **fields))

    def end_turn(self) -> None:
        pass
