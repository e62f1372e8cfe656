"""Shared helpers: the canonical two-round log, digests, and an oracle for the reader.

The oracle (``expected_read``) judges bytes without calling the session package, so a
test can compare what ``read_events`` says with what the contract says it should say.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from mca.session.log import Event

# The session tests already build the 19-event two-round log; reuse that builder.
from tests.session.test_replay_fork import two_rounds  # noqa: F401


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def as_tuple(event: Event) -> tuple:
    """What a test compares: everything but ``ts`` (which is not reproducible)."""
    return (event.seq, event.type, json.dumps(event.fields, sort_keys=True))


@dataclass
class Verdict:
    events: list[tuple]  # (seq, type, fields as sorted JSON)
    stopped_at: int | None
    reason: str | None


def seq_reason(seq: int, previous_seq: int) -> str | None:
    """Why `seq` cannot follow `previous_seq` (the contract: exactly the one before plus 1)."""
    if seq > previous_seq + 1:
        return f"seq {seq} skips {previous_seq + 1}: a line is missing"
    if seq == previous_seq:
        return f"seq {seq} repeats the line before"
    if seq < previous_seq:
        return f"seq {seq} goes back (the line before has {previous_seq})"
    return None


def seq_stop(lines: list[bytes]) -> tuple[int | None, str | None]:
    """(line number, reason) where reading well-formed lines stops on their seqs alone."""
    previous = 0
    for number, raw in enumerate(lines, 1):
        seq = json.loads(raw)["seq"]
        reason = seq_reason(seq, previous)
        if reason:
            return number, reason
        previous = seq
    return None, None


def _judge(raw: bytes, previous_seq: int) -> tuple[tuple | None, str | None]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not valid UTF-8"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, "not valid JSON"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    missing = [k for k in ("seq", "ts", "type") if k not in data]
    if missing:
        return None, "missing " + ", ".join(missing)
    seq, ts, kind = data.pop("seq"), data.pop("ts"), data.pop("type")
    if type(seq) is not int:
        return None, "seq is not an integer"
    if not isinstance(ts, str) or not isinstance(kind, str):
        return None, "ts and type must be strings"
    if seq_reason(seq, previous_seq):
        return None, seq_reason(seq, previous_seq)
    if kind == "message":
        message = data.get("message")
        if not (isinstance(message, dict) and isinstance(message.get("role"), str)
                and isinstance(message.get("tool_calls", []), list)):
            return None, "message event without a valid message object"
    return (seq, kind, json.dumps(data, sort_keys=True)), None


def expected_read(data: bytes) -> Verdict:
    """What the contract says reading ``data`` gives: stop at the first bad line."""
    *complete, tail = data.split(b"\n")
    events: list[tuple] = []
    previous = 0
    for number, line in enumerate(complete, start=1):
        event, reason = _judge(line, previous)
        if event is None:
            return Verdict(events, number, reason)
        events.append(event)
        previous = event[0]
    if tail:
        return Verdict(events, len(complete) + 1, "last line incomplete")
    return Verdict(events, None, None)


def fork_points_of(events: list[Event]) -> list[int]:
    """The contract's fork points, computed here rather than by the package."""
    points = []
    for e in events:
        m = e.fields.get("message") if e.type == "message" else None
        if isinstance(m, dict) and (m.get("role") == "user" or (m.get("role") == "assistant" and not m.get("tool_calls"))):
            points.append(e.seq)
    return points


def expected_resume(events: list[Event], damaged: bool) -> tuple[str, int | None]:
    """``("append", None)``, ``("fork", at_seq)`` or ``("refuse", None)`` per the contract."""
    messages = [e for e in events if e.type == "message"]
    last = messages[-1].fields["message"] if messages else None
    clean_end = last is None or last.get("role") == "system" or (
        last.get("role") == "user" or (last.get("role") == "assistant" and not last.get("tool_calls"))
    )
    if not damaged and clean_end:
        return "append", None
    # the last valid point: a fork point, or the end of a complete tool round (a result for
    # every call of the assistant message, each with its tool_end), whichever is later
    points = fork_points_of(events) + round_ends_of(events)
    return ("fork", max(points)) if points else ("refuse", None)


def round_ends_of(events: list[Event]) -> list[int]:
    """The seqs of the tool results that complete a tool round (this file's own reading of the contract)."""
    ends, calls, waiting, ended = [], set(), set(), set()
    for event in events:
        if event.type == "tool_end":
            ended.add(event.fields.get("id"))
        elif event.type == "message":
            message = event.fields["message"]
            if message.get("role") == "tool" and message.get("tool_call_id") in waiting:
                waiting.discard(message.get("tool_call_id"))
                if not waiting and calls <= ended:
                    ends.append(event.seq)
            else:
                calls = {call["id"] for call in message.get("tool_calls") or []}
                waiting, ended = set(calls), set()
    return ends


def copy_log(source: Path, directory: Path, data: bytes | None = None) -> Path:
    """Put a copy of ``source`` (or ``data`` under its name) in a fresh sessions dir."""
    directory.mkdir(parents=True)
    target = directory / source.name
    if data is None:
        shutil.copyfile(source, target)
    else:
        target.write_bytes(data)
    return target
