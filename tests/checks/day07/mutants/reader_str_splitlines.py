r"""E3: the reader reads the file as text with `errors="replace"` (so a torn
multi-byte character cannot crash it) and splits it with
`str.splitlines(keepends=True)`, checking that each line ends with "\n".

`str.splitlines` splits on more than "\n": U+2028, U+2029, U+0085 (NEL), \x0b, \x0c
and \x1c-\x1e too. JSON escapes the control characters, but `json.dumps(...,
ensure_ascii=False)` writes U+2028/U+2029/U+0085 as they are, so a clean log whose
message text holds one of them is cut in the middle of a line and reported as
damaged. (And `errors="replace"` turns invalid bytes in a middle line into U+FFFD
and reads on.) Lines of a log end at b"\n" only.
"""
TARGET = "mca/session/log.py"
FAILS = ("bad-line-stops", "fork-points", "torn-tail", "unknown-type-tolerated")
MAYBE = ("damaged-then-continue", "missing-line")  # fails them on some generated inputs only

import json


def read_events(path):
    events = []
    previous_seq = 0
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    for line_number, line in enumerate(text.splitlines(keepends=True), start=1):
        if not line.endswith("\n"):
            return ReadResult(events, line_number, "last line incomplete")
        try:
            data = json.loads(line)
        except ValueError:
            return ReadResult(events, line_number, "not valid JSON")
        if not isinstance(data, dict):
            return ReadResult(events, line_number, "not a JSON object")
        missing = [name for name in REQUIRED_FIELDS if name not in data]
        if missing:
            return ReadResult(events, line_number, "missing " + ", ".join(missing))
        seq = data.pop("seq")
        if type(seq) is not int or seq != previous_seq + 1:
            return ReadResult(events, line_number, f"seq {seq!r} does not follow {previous_seq}")
        kind = data.pop("type")
        if kind == "message" and not _is_message(data.get("message")):
            return ReadResult(events, line_number, "message event without a valid message object")
        events.append(Event(seq, data.pop("ts"), kind, data))
        previous_seq = seq
    return ReadResult(events)
