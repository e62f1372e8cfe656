"""E1: the recorder writes each event when it happens, with its own two writes on
the log's file descriptor: the JSON text, then the newline.

The contract is one append-mode write per event. Between the two writes the file
ends in a line without its newline: a process killed there leaves a torn line that
would have been avoidable, and a second writer's line can land between the object
and its newline. (SessionLog.append exists to do this right.)
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)

import json
import os

from .log import utc_timestamp


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []

    def handle(self, event):
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        record = Event(self.log.next_seq, utc_timestamp(), kind, fields)
        os.write(self.log._fd, json.dumps(record.to_dict(), ensure_ascii=False).encode("utf-8"))
        os.write(self.log._fd, b"\n")
        self.log.next_seq += 1
        self.written.append(record)

    def end_turn(self):
        pass
