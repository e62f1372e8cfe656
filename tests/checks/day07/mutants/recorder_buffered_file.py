"""E1: the recorder opens the log with Python's `open(path, "a")` and writes each
event's line through that file object as it happens, taking seq from the log;
end_turn flushes the file.

`write()` on a buffered file object only copies the line into a memory buffer; it
reaches the file at flush time (here: the end of the turn) or when 8 KB pile up.
`handle` returns with nothing on disk, and a killed process loses the turn - the
scaffold's bug behind a write call. SessionLog.append does one os.write per event.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens", "dangling-tool-call")

import json

from .log import utc_timestamp


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.file = open(log.path, "a", encoding="utf-8")

    def handle(self, event):
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        record = Event(self.log.next_seq, utc_timestamp(), kind, fields)
        self.file.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
        self.log.next_seq += 1
        self.written.append(record)

    def end_turn(self):
        self.file.flush()
