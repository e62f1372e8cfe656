"""E3: the reader parses each line first and looks for the missing newline after, so
a torn tail that does not parse is reported as bad JSON (or bad UTF-8).

The reason must say the last line is incomplete: a crash, not a file someone touched.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail",)


def read_events(path: Path | str) -> ReadResult:
    events: list[Event] = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return ReadResult(events, line_number, problem)
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
