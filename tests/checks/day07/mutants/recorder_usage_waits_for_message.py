"""E1: the recorder holds a `usage` event back until the assistant message it belongs
to arrives, then writes the two one after the other ("they describe one reply").

The order on disk is right (usage, then the message), and a clean turn logs all of
it. But when `handle(usage)` returns, the usage line is not in the file: if the
process dies while the model's reply is being handled, it is lost. Every event is
written when it happens, not when its partner shows up.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)


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
        if self.held is not None:
            held_kind, held_fields = self.held
            self.held = None
            self.written.append(self.log.append(held_kind, **held_fields))
        self.written.append(self.log.append(kind, **fields))

    def end_turn(self):
        if self.held is not None:
            kind, fields = self.held
            self.held = None
            self.written.append(self.log.append(kind, **fields))
