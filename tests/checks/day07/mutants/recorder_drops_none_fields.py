"""E1: the recorder "keeps the log small" by leaving out fields whose value is None
before writing (`{k: v for k, v in fields.items() if v is not None}`).

Every `tool_end` that was not blocked loses its `blocked_by` field (null means "not
blocked", and that is information), an `error` without a place loses `where`. The
fields of each type are fixed by the contract; readers and people rely on them
being there.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []

    def handle(self, event):
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            compact = {key: value for key, value in fields.items() if value is not None}
            self.written.append(self.log.append(kind, **compact))

    def end_turn(self):
        pass
