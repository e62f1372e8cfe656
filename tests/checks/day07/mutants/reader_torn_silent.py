"""E3: the reader stops at a torn last line but reports nothing (no line, no reason)."""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "damaged-then-continue")


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events)
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
