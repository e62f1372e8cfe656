"""E3: the reader treats an event type it does not know as damage and stops there."""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail", "unknown-type-tolerated")
MAYBE = ("bad-line-stops",)  # fails them on some generated inputs only


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            event, problem = parse_line(raw, previous_seq)
            if event is not None and event.type not in KNOWN_TYPES:
                event, problem = None, f"unknown type {event.type}"
            if event is None:
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
