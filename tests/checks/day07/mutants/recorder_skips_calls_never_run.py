"""E1: the recorder writes each event when it happens, but leaves out the tool_end of a
call that never ran ("blocked_by set: there was no run, so there is nothing to end").

A call refused by the approval gate or stopped by the loop guard still has its end: the
audit record is how a reader of the log learns that the call was blocked, and by what.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens",)

from ..agent.events import ToolFinished


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []

    def handle(self, event):
        if isinstance(event, ToolFinished) and event.blocked_by:
            return
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            self.written.append(self.log.append(kind, **fields))

    def end_turn(self):
        pass
