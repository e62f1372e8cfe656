"""E1: the recorder writes each event at once, except tool_end, which it holds back
until the tool's result message has been written ("result first, then its stats")."""
TARGET = "mca/session/recorder.py"
FAILS = ("errors-recorded", "event-order", "resume-across-processes", "written-as-it-happens")


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
        if kind == "tool_end":
            self.held = entry
            return
        self.written.append(self.log.append(kind, **fields))
        if kind == "message" and fields["message"].get("role") == "tool" and self.held is not None:
            held_kind, held_fields = self.held
            self.held = None
            self.written.append(self.log.append(held_kind, **held_fields))

    def end_turn(self):
        pass
