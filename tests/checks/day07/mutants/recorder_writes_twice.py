"""E1: the student added the immediate write to `handle` but kept the scaffold's
`end_turn`, which still writes every pending event again.

Each event is on disk when it happens - and then a second time at the end of the
turn, with new seq numbers: round 1 has 16 lines, and replay would give the model
every message twice.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("errors-recorded", "event-order", "log-format", "model-frozen", "resume-across-processes", "written-as-it-happens")


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.pending = []

    def handle(self, event):
        self.pending.append(event)
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            self.written.append(self.log.append(kind, **fields))

    def end_turn(self):
        for event in self.pending:
            entry = to_log_event(event)
            if entry is not None:
                kind, fields = entry
                self.written.append(self.log.append(kind, **fields))
        self.pending.clear()
