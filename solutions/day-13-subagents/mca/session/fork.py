"""Fork: grow a new session from a clean point of an existing one.

A fork copies the parent's first lines, up to and including event N, into a new
file, byte for byte and with the same seq numbers (so "event 8" means the same thing
in both), then adds one ``fork`` event that records where it came from. The parent
is only ever read.

A recovery fork (resume of a damaged or broken log, session/resume.py) may also
start at the end of a complete tool round (``round_ends``, ``round_end_fork``): that
prefix is a valid request too, so a finished tool run is kept and never run again.
``fork`` (``fork ID N``, ``/fork N``) offers only the clean boundaries of ``fork_points``.

That is not a rollback. A rollback moves the current session back; a fork leaves
it exactly as it was and starts a second one. Neither touches files on disk that
the agent edited: restoring those needs file snapshots.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from .ids import fresh_session_id, session_path
from .log import Event, SessionError, SessionLog, fsync_directory, fsync_requested, parse_line, read_events


class ForkError(ValueError):
    """A fork that cannot be made, with the reason and what to do instead."""


def fork_points(events: Iterable[Event]) -> list[int]:
    """The seqs where a conversation can be cut cleanly.

    A user message, or an assistant message that asks for no tools. Cutting right
    after an assistant message with tool calls would leave calls without results,
    and the next request to the model would be invalid. System and tool messages
    are never fork points.
    """
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and not message.get("tool_calls")):
            points.append(event.seq)
    return points


def round_ends(events: Iterable[Event]) -> list[int]:
    """The seqs where a complete tool round ends: the ``tool`` result that answers the
    last open call of an assistant message with tool calls, when every call of that
    message has its result and its ``tool_end`` by then. The messages up to such a seq
    are a valid request (the model goes on from the results), so a recovery fork may
    start there; ``fork_points`` does not offer it to people (provided code, not an
    exercise point)."""
    ends: list[int] = []
    calls: set[str] = set()
    waiting: set[str] = set()
    ended: set[str] = set()
    for event in events:
        if event.type == "tool_end":
            ended.add(str(event.fields.get("id")))
            continue
        message = event.message
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            calls = {str(call.get("id")) for call in message["tool_calls"] if isinstance(call, dict)}
            waiting, ended = set(calls), set()
        elif role == "tool" and str(message.get("tool_call_id")) in waiting:
            waiting.discard(str(message.get("tool_call_id")))
            if not waiting and calls <= ended:
                ends.append(event.seq)
        else:
            calls, waiting = set(), set()
    return ends


def _prefix_events(parent: Path, at_seq: int) -> list[Event]:
    """The parent's events up to ``at_seq`` (streamed with the provided line rule); []
    if a bad line comes first or the seq is not there."""
    events: list[Event] = []
    previous_seq = 0
    with open(parent, "rb") as handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                return []
            event, _problem = parse_line(raw, previous_seq)
            if event is None or event.seq > at_seq:
                return []
            events.append(event)
            if event.seq == at_seq:
                return events
            previous_seq = event.seq
    return []


def _prefix_size(parent: Path, at_seq: int) -> tuple[Event | None, int]:
    """Read the parent up to event ``at_seq``: return that event and the byte size of the prefix.

    Streams line by line, so forking a huge log does not load it into memory.
    Returns ``(None, 0)`` if a bad line comes first or the seq is not there.
    """
    size = 0
    previous_seq = 0
    with open(parent, "rb") as handle:
        for raw in handle:
            if not raw.endswith(b"\n"):
                return None, 0
            event, _problem = parse_line(raw, previous_seq)
            if event is None or event.seq > at_seq:
                return None, 0
            size += len(raw)
            if event.seq == at_seq:
                return event, size
            previous_seq = event.seq
    return None, 0


def readable_end(path: Path) -> tuple[int, int | None, str | None]:
    """The last seq a fork can reach, and the line where reading stops and why (None, None
    if the whole file reads). Streams the file with the provided line rule (parse_line),
    so a refusal names the right end whatever state read_events is in."""
    previous_seq = 0
    with open(path, "rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return previous_seq, line_number, "last line incomplete"
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                return previous_seq, line_number, problem
            previous_seq = event.seq
    return previous_seq, None, None


def missing_event(path: Path, at_seq: int) -> str | None:
    """Why there is no event ``at_seq`` to fork at (``no event 99: the log ends at seq 19``),
    or None when the log has that event."""
    last, stopped_at, reason = readable_end(path)
    if 1 <= at_seq <= last:
        return None
    if at_seq < 1:
        return f"no event {at_seq}: events are numbered from 1" + (f" to {last}" if last else "")
    if stopped_at is None:
        return f"no event {at_seq}: the log ends at seq {last}"
    return (f"no event {at_seq} can be read: the log stops at line {stopped_at} ({reason}), "
            f"after seq {last}")


def clean_prefix_size(parent: Path, at_seq: int) -> int | None:
    """The byte size of the parent's lines up to event ``at_seq`` if that is a fork point, else None."""
    event, size = _prefix_size(parent, at_seq)
    if event is None:
        return None
    if at_seq not in fork_points([event]):
        return None
    return size


def listed_fork_points(path: Path) -> str:
    """All fork points of a log, for a message ("2, 8, 9, 19")."""
    return ", ".join(map(str, fork_points(read_events(path).events))) or "none"


def _copy_prefix(parent: Path, child: Path, size: int) -> None:
    """Create ``child`` holding exactly the first ``size`` bytes of ``parent``."""
    with open(parent, "rb") as source, open(child, "xb") as target:
        remaining = size
        while remaining:
            chunk = source.read(min(remaining, 1 << 16))
            if not chunk:
                raise SessionError(f"{parent.name} shrank while it was being forked")
            target.write(chunk)
            remaining -= len(chunk)
        if fsync_requested():
            target.flush()
            os.fsync(target.fileno())


def fork(sessions_dir: Path | str, parent_id: str, at_seq: int) -> str:
    """Make a new session from ``parent_id``'s events up to ``at_seq``; return its id."""
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    prefix_bytes = clean_prefix_size(parent, at_seq)
    if prefix_bytes is None:
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}; fork points: {listed_fork_points(parent)}")

    child_id = fresh_session_id(sessions_dir)
    child = session_path(sessions_dir, child_id)
    _copy_prefix(parent, child, prefix_bytes)
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id


def round_end_fork(sessions_dir: Path | str, parent_id: str, at_seq: int) -> str:
    """A recovery fork at the end of a complete tool round (``round_ends``): the parent's
    lines up to ``at_seq`` copied byte for byte, then the ``fork`` event, as ``fork`` makes
    one at a fork point. Provided code for resume only: ``fork`` (and ``fork ID N``,
    ``/fork N``) keeps to the clean boundaries, and the parent is only ever read."""
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    prefix = _prefix_events(parent, at_seq)
    if at_seq not in round_ends(prefix):
        raise ForkError(f"seq {at_seq} does not end a complete tool round of {parent_id}")
    _event, size = _prefix_size(parent, at_seq)
    child_id = fresh_session_id(sessions_dir)
    child = session_path(sessions_dir, child_id)
    with open(parent, "rb") as source, open(child, "xb") as target:
        data = source.read(size)
        if len(data) != size:
            raise SessionError(f"{parent.name} shrank while it was being forked")
        target.write(data)
        if fsync_requested():
            target.flush()
            os.fsync(target.fileno())
    if fsync_requested():
        fsync_directory(sessions_dir)
    with SessionLog.open_append(child, last_seq=at_seq) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id


__all__ = ["ForkError", "clean_prefix_size", "fork", "fork_points", "listed_fork_points", "missing_event",
           "readable_end", "round_end_fork", "round_ends"]
