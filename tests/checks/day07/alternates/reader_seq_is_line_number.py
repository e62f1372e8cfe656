"""A correct E3 written differently: a generator yields (line number, raw line) and
stops at the first line without its newline; each line's seq is compared with its
line number. Since a log starts at seq 1 and goes up by one per line, "seq equals
the line number" is the same rule as "seq is the previous plus one" for every line
up to the first bad one - a gap, a repeat or a lower seq all stop there.
"""
TARGETS = {"read_events": "mca/session/log.py", "_numbered_lines": "mca/session/log.py"}
ADD = ("_numbered_lines",)
FAILS = ()

import json


def read_events(path):
    events = []
    with open(path, "rb") as handle:
        for number, raw in _numbered_lines(handle):
            if raw is None:
                return ReadResult(events, number, "last line incomplete")
            try:
                record = json.loads(raw.decode("utf-8"))
            except ValueError:  # UnicodeDecodeError is one too
                return ReadResult(events, number, "unparseable line")
            except RecursionError:
                return ReadResult(events, number, "unparseable line (nested too deep)")
            if not isinstance(record, dict):
                return ReadResult(events, number, "not an object")
            absent = [key for key in REQUIRED_FIELDS if key not in record]
            if absent:
                return ReadResult(events, number, f"no {'/'.join(absent)}")
            seq = record.pop("seq")
            if type(seq) is not int or seq != number:
                return ReadResult(events, number, f"line {number} has seq {seq!r}")
            ts, kind = record.pop("ts"), record.pop("type")
            if kind == "message" and not _is_message(record.get("message")):
                return ReadResult(events, number, "message event without a message")
            events.append(Event(seq, ts, kind, record))
    return ReadResult(events)


def _numbered_lines(handle):
    """(number, line) for each complete line; (number, None) for a torn last line."""
    for number, raw in enumerate(handle, start=1):
        if raw.endswith(b"\n"):
            yield number, raw
        else:
            yield number, None
            return
