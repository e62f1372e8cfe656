"""A correct E1 written differently: each event is appended when it arrives and
then fsync'ed (through a read-only descriptor of the same file, so the log's own
descriptor and its lock are left alone), so it survives a power loss as well as a
kill. end_turn has nothing left to do.
"""
TARGET = "mca/session/recorder.py"
FAILS = ()

import os


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []

    def handle(self, event):
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        self.written.append(self.log.append(kind, **fields))
        fd = os.open(self.log.path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def end_turn(self):
        return None
