"""E1: the recorder passes its own `seq=` counter to append, starting from 2 and again
from 2 after a resume.

SessionLog.append knows the next seq; a second counter disagrees with it, and a resumed
session writes seqs that go back.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("damaged-then-continue", "resume-across-processes", "written-as-it-happens")


class SessionRecorder:
    """Writes the log events of one session, in the order the agent emits them."""

    def __init__(self, log: SessionLog) -> None:
        self.log = log
        self.written: list[Event] = []
        self.seq = 1  # event 1 is the system message, written by the chat

    def handle(self, event: AgentEvent) -> None:
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            self.seq += 1
            self.written.append(self.log.append(kind, seq=self.seq, **fields))

    def end_turn(self) -> None:
        pass
