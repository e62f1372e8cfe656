"""E3: `functools.lru_cache` on read_events ("the REPL reads the same log again and
again"): a second read of a path in the same process returns the first answer.

After an append, /log and /fork in the REPL would show the old events. The check reads
one file in place three times as it grows.
"""
TARGET = "mca/session/log.py"
FAILS = ("torn-tail",)

import functools


@functools.lru_cache(maxsize=64)
def read_events(path: Path | str) -> ReadResult:
    events: list[Event] = []
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)
