"""E3: the reader judges the last line by parsing it: a last line that lost only its
newline still parses, so it is taken as complete."""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail",)


def read_events(path):
    events = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
