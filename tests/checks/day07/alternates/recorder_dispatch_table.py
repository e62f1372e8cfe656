"""A correct E1 written differently: a table from agent event class to a function
that gives the log type and fields; events of other classes (text deltas, tool
starts) are not in it. Each log event is written inside `handle`.
"""
TARGET = "mca/session/recorder.py"
FAILS = ()


class SessionRecorder:
    def __init__(self, log):
        self.log = log
        self.written = []
        self.table = {
            MessageAdded: lambda e: ("message", {"message": e.message}),
            UsageReported: lambda e: ("usage", {"input_tokens": e.input_tokens, "output_tokens": e.output_tokens}),
            ToolFinished: lambda e: ("tool_end", {"id": e.id, "name": e.name, "ok": e.ok, "ms": e.ms,
                                                  "chars": e.chars, "truncated": e.truncated,
                                                  "blocked_by": e.blocked_by}),
            ErrorOccurred: lambda e: ("error", {"message": e.message, "where": e.where}),
        }

    def handle(self, event):
        make = self.table.get(type(event))
        if make is not None:
            kind, fields = make(event)
            self.written.append(self.log.append(kind, **fields))

    def end_turn(self):
        pass
