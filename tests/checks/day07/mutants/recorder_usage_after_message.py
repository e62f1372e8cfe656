"""E1: the recorder writes the `usage` event after the assistant message instead of
before it ("first what the model said, then what it cost").

The contract fixes the order of a tool round - usage, the assistant message with
tool_calls, its tool_end, the tool result - because that is the order things
happen (the usage arrives with the end of the reply stream, before the message joins
the history). And while usage waits for the message it is not on disk.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("dangling-tool-call", "errors-recorded", "event-order", "resume-across-processes", "written-as-it-happens")


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.held = None

    def handle(self, event):
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        if kind == "usage":
            self.held = entry
            return
        self.written.append(self.log.append(kind, **fields))
        if kind == "message" and self.held is not None:
            held_kind, held_fields = self.held
            self.held = None
            self.written.append(self.log.append(held_kind, **held_fields))

    def end_turn(self):
        if self.held is not None:
            kind, fields = self.held
            self.held = None
            self.written.append(self.log.append(kind, **fields))
