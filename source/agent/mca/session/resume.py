"""Resume: pick a session up again in a new process.

Resume reads the log, replays its messages, and decides where new events go:

* the log is intact and ends at a clean boundary -> keep appending to it;
* the log is damaged, or ends in the middle of a tool round (killed while a tool
  ran) -> continue in a *recovery fork* from the last fork point. The damaged file
  stays byte-identical for the user to inspect, and no new event ever follows a
  bad line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fork import ForkError, fork, fork_points
from .ids import SESSION_ID_PATTERN, InvalidSessionId, check_session_id, session_path
from .log import Event, ReadResult, SessionError, SessionLog, read_events, writer_lock
from .replay import replay


class ResumeError(Exception):
    """Resume is not possible; the message says why and what to do."""


@dataclass
class SessionInfo:
    session_id: str
    path: Path
    events: int
    messages: int
    damaged: bool


@dataclass
class Resumed:
    session_id: str
    log: SessionLog
    messages: list[dict[str, Any]]
    replayed: int
    skipped: int
    notes: list[str] = field(default_factory=list)
    forked_from: str | None = None


def _session_files(sessions_dir: Path) -> list[Path]:
    if not sessions_dir.is_dir():
        return []
    return [p for p in sessions_dir.glob("*.jsonl") if SESSION_ID_PATTERN.fullmatch(p.stem)]


def latest_session_id(sessions_dir: Path | str) -> str | None:
    """The newest session by id (ids sort by creation time; file times are not trusted)."""
    names = sorted(p.stem for p in _session_files(Path(sessions_dir)))
    return names[-1] if names else None


def list_sessions(sessions_dir: Path | str) -> list[SessionInfo]:
    """Every session in the directory, newest first. A damaged log is listed, not hidden."""
    infos = []
    for path in _session_files(Path(sessions_dir)):
        try:
            result = read_events(path)
        except OSError:
            continue
        messages = sum(1 for event in result.events if event.type == "message")
        infos.append(SessionInfo(path.stem, path, len(result.events), messages, result.damaged))
    return sorted(infos, key=lambda info: info.session_id, reverse=True)


def ends_cleanly(events: list[Event], points: list[int]) -> bool:
    """True when new messages can follow these events without breaking the history."""
    last_message = next((e for e in reversed(events) if e.type == "message"), None)
    if last_message is None or last_message.fields["message"].get("role") == "system":
        return True  # nothing has happened yet
    return last_message.seq in points


def resume(sessions_dir: Path | str, session_id: str | None = None) -> Resumed:
    """Open a session for more work: the latest one, or ``session_id``."""
    sessions_dir = Path(sessions_dir)
    if session_id is None:
        session_id = latest_session_id(sessions_dir)
        if session_id is None:
            raise ResumeError(f"no session to resume in {sessions_dir}; start one without --resume")
    try:
        path = session_path(sessions_dir, session_id)
    except InvalidSessionId as exc:
        raise ResumeError(str(exc)) from None
    if not path.is_file():
        raise ResumeError(f"no session {session_id} in {sessions_dir} (python -m mca --list shows the sessions there)")

    try:
        with writer_lock(path):  # a session another process is writing is refused, not forked
            size = path.stat().st_size
            result = read_events(path)
            rebuilt = replay(result.events)  # an unfinished replay() fails here, before any file is made
            points = fork_points(result.events)
            notes = []
            if result.damaged:
                notes.append(f"log stopped at line {result.stopped_at}: {result.reason}")
            clean = not result.damaged and ends_cleanly(result.events, points)
            if not clean:
                return _recovery_fork(sessions_dir, session_id, result, points, notes)
        # The lock is released and taken again by the writer; the size check catches a
        # process that slipped in between.
        log = SessionLog.open_append(path, result.last_seq, expected_size=size)
    except (SessionError, ForkError) as exc:
        raise ResumeError(str(exc)) from None
    return Resumed(session_id, log, rebuilt.messages, rebuilt.replayed, rebuilt.skipped, notes)


def _recovery_fork(sessions_dir: Path, session_id: str, result: ReadResult, points: list[int], notes: list[str]) -> Resumed:
    """Continue a damaged or unfinished session in a new one from its last fork point."""
    if not points:
        raise ResumeError(
            f"session {session_id} has no clean point to continue from; start a new session "
            f"(the file is left as it was)"
        )
    at_seq = points[-1]
    if not result.damaged:
        notes.append(f"the log ends in the middle of a tool round (after seq {result.last_seq})")
    child_id = fork(sessions_dir, session_id, at_seq)
    notes.append(f"continuing in recovery fork {child_id} from seq {at_seq}; "
                 f"{session_id}.jsonl is left as it was")
    child = session_path(sessions_dir, child_id)
    child_result = read_events(child)
    rebuilt = replay(child_result.events)
    log = SessionLog.open_append(child, child_result.last_seq)
    return Resumed(child_id, log, rebuilt.messages, rebuilt.replayed, rebuilt.skipped, notes, forked_from=session_id)


__all__ = [
    "ResumeError", "Resumed", "SessionInfo", "ends_cleanly", "latest_session_id",
    "list_sessions", "resume", "check_session_id",
]
