"""E3: the reader takes a blank last line for the end of the file (an editor's final
newline, `echo >> log`).

The blank line is complete and is not a JSON object, so reading stops there. Read as
clean, resume appends new events after it, where no reader can reach them.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)


def read_events(path: Path | str) -> ReadResult:
    events: list[Event] = []
    previous_seq = 0
    with open(path, "rb") as handle:
        lines = handle.readlines()
    for line_number, raw in enumerate(lines, start=1):
        if line_number == len(lines) and raw.endswith(b"\n") and not raw.strip():
            break  # an editor's extra newline at the end of the file
        if not raw.endswith(b"\n"):
            return ReadResult(events, line_number, "last line incomplete")
        event, problem = parse_line(raw, previous_seq)
        if event is None:
            return ReadResult(events, line_number, problem)
        events.append(event)
        previous_seq = event.seq
    return ReadResult(events)
