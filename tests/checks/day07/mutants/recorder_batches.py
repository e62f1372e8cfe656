"""E1: the recorder keeps log events in memory and writes them in one go when the
turn ends; a process killed mid-turn loses them all."""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens", "dangling-tool-call")


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.batch = []

    def handle(self, event):
        entry = to_log_event(event)
        if entry is not None:
            self.batch.append(entry)

    def end_turn(self):
        batch, self.batch = self.batch, []
        for kind, fields in batch:
            self.written.append(self.log.append(kind, **fields))
