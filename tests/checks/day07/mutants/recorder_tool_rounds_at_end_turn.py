"""E1: the recorder writes plain messages at once, but once the model asks for tools
it keeps everything in memory until end_turn ("a tool round is written whole or not
at all, so the log never ends in the middle of a round").

That is the scaffold's bug for the part of the turn that matters most: while a long
test run goes on, the assistant message that started it is not on disk, and a kill
loses the whole round. The log may end in the middle of a round - resume deals with
that by continuing from the last fork point.
"""
TARGET = "mca/session/recorder.py"
FAILS = ("written-as-it-happens", "dangling-tool-call")


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.round = None

    def handle(self, event):
        entry = to_log_event(event)
        if entry is None:
            return
        kind, fields = entry
        if self.round is None and kind == "message" and fields["message"].get("tool_calls"):
            self.round = []
        if self.round is not None:
            self.round.append(entry)
            return
        self.written.append(self.log.append(kind, **fields))

    def end_turn(self):
        for kind, fields in self.round or []:
            self.written.append(self.log.append(kind, **fields))
        self.round = None
