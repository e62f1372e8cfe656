r"""A correct E3 written differently: the whole file is read as bytes at once and
split on b"\n"; the piece after the last newline is empty on a clean log and is the
torn line otherwise (reported only after every complete line before it has been
checked). Lines are decoded one at a time, never the whole file.
"""
TARGET = "mca/session/log.py"
FAILS = ()

import json


def read_events(path):
    data = Path(path).read_bytes()
    *complete, tail = data.split(b"\n")
    events = []
    for number, line in enumerate(complete, start=1):
        try:
            obj = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return ReadResult(events, number, "bad JSON")
        if type(obj) is not dict:
            return ReadResult(events, number, f"a JSON {type(obj).__name__}, not an object")
        for name in ("seq", "ts", "type"):
            if name not in obj:
                return ReadResult(events, number, f"no {name}")
        want = len(events) + 1
        if type(obj["seq"]) is not int or obj["seq"] != want:
            return ReadResult(events, number, f"seq should be {want}, is {obj['seq']!r}")
        if obj["type"] == "message" and not _is_message(obj.get("message")):
            return ReadResult(events, number, "message event without a message")
        rest = {key: value for key, value in obj.items() if key not in ("seq", "ts", "type")}
        events.append(Event(obj["seq"], obj["ts"], obj["type"], rest))
    if tail:
        return ReadResult(events, len(complete) + 1, "last line incomplete")
    return ReadResult(events)
