"""E3: the reader takes `int(data["seq"])`, so "3", 3.0 and " 3" pass for seq 3.

The seq is written as an integer; a line whose seq is a string or a float was not
written by this log's writer.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops",)


def read_events(path: Path | str) -> ReadResult:
    events: list[Event] = []
    previous = 0
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, number, "last line incomplete")
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                return ReadResult(events, number, "not valid JSON")
            if not isinstance(data, dict):
                return ReadResult(events, number, "not a JSON object")
            missing = [name for name in REQUIRED_FIELDS if name not in data]
            if missing:
                return ReadResult(events, number, f"missing {', '.join(missing)}")
            try:
                seq = int(data.pop("seq"))
            except (TypeError, ValueError):
                return ReadResult(events, number, "seq is not a number")
            if seq != previous + 1:
                return ReadResult(events, number, _seq_problem(seq, previous))
            ts, kind = data.pop("ts"), data.pop("type")
            if not isinstance(ts, str) or not isinstance(kind, str):
                return ReadResult(events, number, "ts and type must be strings")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, number, "message event without a valid message object")
            events.append(Event(seq, ts, kind, data))
            previous = seq
    return ReadResult(events)
