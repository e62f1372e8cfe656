"""Reading session logs the way the checks need: leniently, line by line.

The log format is a course contract (one JSON object per line, `seq`, `ts`, `type`),
so checks parse it themselves instead of trusting the lab's reader. A line that is
not a complete JSON object is kept with `data` None, never an exception.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from grader.checkkit.messages import kit_say

KNOWN_TYPES = ("message", "tool_end", "usage", "error", "fork")


@dataclass(frozen=True)
class Line:
    number: int
    raw: bytes
    data: dict | None  # None: not a complete JSON object

    @property
    def kind(self) -> str:
        """`message ROLE[+tool_calls]` or the type, for comparing shapes."""
        if self.data is None:
            return kit_say("log.not_an_object")
        if self.data.get("type") != "message":
            return str(self.data.get("type"))
        message = self.message
        calls = "+tool_calls" if message.get("tool_calls") else ""
        return f"message {message.get('role')}{calls}"

    @property
    def message(self) -> dict:
        if self.data and self.data.get("type") == "message" and isinstance(self.data.get("message"), dict):
            return self.data["message"]
        return {}

    def text(self, limit: int = 160) -> str:
        return self.raw[:limit].decode("utf-8", "replace")


def parse_lines(data: bytes) -> list[Line]:
    """Split at b"\\n" only: a raw CR inside a line is damage to report, not a line break."""
    pieces = data.split(b"\n")
    raws = [piece + b"\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    lines = []
    for number, raw in enumerate(raws, start=1):
        try:
            value = json.loads(raw) if raw.endswith(b"\n") else None
        except ValueError:
            value = None
        lines.append(Line(number, raw, value if isinstance(value, dict) else None))
    return lines


def read_lines(path: Path) -> list[Line]:
    """Every line of a log; no file reads as no lines."""
    return parse_lines(path.read_bytes()) if Path(path).is_file() else []


def chain_problem(messages: list[dict]) -> str | None:
    """valid_chain (checkkit/chain.py) for messages in the log's shape
    (`tool_calls: [{id, name, args}]`), as a real API would judge them."""
    from grader.checkkit.chain import valid_chain
    wire = []
    for message in messages:
        if isinstance(message, dict) and message.get("tool_calls"):
            calls = [{"id": c.get("id"), "type": "function",
                      "function": {"name": c.get("name"), "arguments": json.dumps(c.get("args", {}))}}
                     for c in message["tool_calls"] if isinstance(c, dict)]
            message = {**message, "tool_calls": calls}
        wire.append(message)
    return valid_chain(wire)


def shapes(lines: list[Line]) -> str:
    return ", ".join(line.kind for line in lines) or kit_say("log.no_lines")


def described(lines: list[Line]) -> str:
    """`3 lines (message system, message user, usage)`."""
    count = kit_say("log.line_one" if len(lines) == 1 else "log.line_many", count=len(lines))
    return kit_say("log.described", count=count, shapes=shapes(lines)) if lines else count


def logs_in(directory: Path) -> list[Path]:
    return sorted(Path(directory).glob("*.jsonl")) if Path(directory).is_dir() else []


def names(paths) -> str:
    return ", ".join(p.name for p in paths) or kit_say("log.nothing")


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def is_utc(ts) -> bool:
    """An ISO-8601 time with a zero offset (`...Z` or `...+00:00`)."""
    if not isinstance(ts, str) or not (ts.endswith("Z") or ts.endswith("+00:00")):
        return False
    try:
        parsed = datetime.fromisoformat(ts[:-1] + "+00:00" if ts.endswith("Z") else ts)
    except ValueError:
        return False
    return parsed.utcoffset() == timedelta(0)


def why_not_utc(ts) -> str:
    """What is wrong with a ts that is not ISO-8601 UTC, in a few words."""
    if not isinstance(ts, str):
        return kit_say("ts.not_a_string", kind=type(ts).__name__, ts=repr(ts))
    try:
        parsed = datetime.fromisoformat(ts[:-1] + "+00:00" if ts.endswith("Z") else ts)
    except ValueError:
        return kit_say("ts.not_iso", ts=repr(ts))
    if parsed.utcoffset() is None:
        return kit_say("ts.no_offset", ts=repr(ts))
    if parsed.utcoffset() != timedelta(0):
        return kit_say("ts.local", ts=repr(ts), offset=parsed.utcoffset())
    return kit_say("ts.suffix", ts=repr(ts))
