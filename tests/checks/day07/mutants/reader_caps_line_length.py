"""E3: the reader reads with `readline(8192)`, so a longer line comes back in pieces
and the first piece looks torn.

A tool result of a few thousand characters of CJK text is enough. A clean log with a
line of more than 1 MiB must read as clean.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail",)


def read_events(path: Path | str) -> ReadResult:
    events: list[Event] = []
    previous_seq = 0
    line_number = 0
    with open(path, "rb") as handle:
        while True:
            raw = handle.readline(8192)
            if not raw:
                break
            line_number += 1
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
