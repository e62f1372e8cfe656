"""E3: the reader parses with `json.loads(..., strict=False)`, which accepts a raw
control character (TAB, CR) inside a string.

No writer of this log produces one (json.dumps escapes them), so such a line is damage
and reading stops there.
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
                data = json.loads(raw.decode("utf-8"), strict=False)
            except UnicodeDecodeError:
                return ReadResult(events, number, "not valid UTF-8")
            except ValueError:
                return ReadResult(events, number, "not valid JSON")
            if not isinstance(data, dict):
                return ReadResult(events, number, "not a JSON object")
            missing = [name for name in REQUIRED_FIELDS if name not in data]
            if missing:
                return ReadResult(events, number, f"missing {', '.join(missing)}")
            seq, ts, kind = data.pop("seq"), data.pop("ts"), data.pop("type")
            if type(seq) is not int or seq != previous + 1:
                return ReadResult(events, number, f"seq {seq!r} after {previous}")
            if not isinstance(ts, str) or not isinstance(kind, str):
                return ReadResult(events, number, "ts and type must be strings")
            if kind == "message" and not _is_message(data.get("message")):
                return ReadResult(events, number, "message event without a valid message object")
            events.append(Event(seq, ts, kind, data))
            previous = seq
    return ReadResult(events)
