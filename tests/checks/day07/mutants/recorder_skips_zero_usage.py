"""E1: the recorder drops a usage event whose tokens add up to 0 ("nothing was
spent").

A usage of 0 tokens (a failed attempt, a cached reply) is still an event of the turn;
the log is the record, not a summary. The recorder harness feeds one.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)


class SessionRecorder:
    """Writes the log events of one session, in the order the agent emits them."""

    def __init__(self, log: SessionLog) -> None:
        self.log = log
        self.written: list[Event] = []

    def handle(self, event: AgentEvent) -> None:
        if isinstance(event, UsageReported) and event.input_tokens + event.output_tokens == 0:
            return  # a request that cost nothing is not worth a line
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            self.written.append(self.log.append(kind, **fields))

    def end_turn(self) -> None:
        pass
