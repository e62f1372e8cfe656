"""Resume: pick a session up again in a new process.

Resume reads the log, replays its messages, and decides where new events go:

* the log is intact and its messages are a valid, complete history -> keep
  appending to it;
* the log is damaged, or its history breaks (killed while a tool ran, a line
  missing) -> continue in a *recovery fork* from the last valid point before the
  break: a fork point, or the end of a complete tool round (its results are kept, so
  a finished tool run is never run again). The damaged file stays byte-identical for
  the user to inspect, and no new event ever follows a bad line.

The decision is made on the logged messages themselves (the chain rule every chat
API enforces, gateway/chain.py), so it never rests on how replay or fork_points
are written; those two give the history and the point to fork from.

The model a session talks to is frozen when the session is created: its first
event carries the gateway's `config`, and resume hands it back (`Resumed.config`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gateway.chain import find_break
from .fork import ForkError, fork, fork_points, round_end_fork, round_ends
from .ids import SESSION_ID_PATTERN, InvalidSessionId, check_session_id, session_path
from .log import Event, ReadResult, SessionError, SessionLog, read_events, stop_note, writer_lock
from .replay import replay


class ResumeError(Exception):
    """Resume is not possible; the message says why and what to do."""


class NoSuchSession(ResumeError):
    """A piece of an id that names no session, or several: bad usage (exit status 2)."""

    def __init__(self, message: str, matches: list[str]) -> None:
        super().__init__(message)
        self.matches = matches


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
    config: dict[str, Any] | None = None  # the model configuration frozen at creation, if logged


def _session_files(sessions_dir: Path) -> list[Path]:
    if not sessions_dir.is_dir():
        return []
    return [p for p in sessions_dir.glob("*.jsonl") if SESSION_ID_PATTERN.fullmatch(p.stem)]


def session_ids(sessions_dir: Path | str) -> list[str]:
    """The ids of the sessions in the directory, newest first."""
    return sorted((p.stem for p in _session_files(Path(sessions_dir))), reverse=True)


def matching_sessions(sessions_dir: Path | str, piece: str) -> list[str]:
    """The sessions ``piece`` names, newest first: the one whose id it is, else every id
    that starts or ends with it (``5aa3``, ``s-20261129-10``, ``103359-e881``)."""
    ids = session_ids(sessions_dir)
    if piece in ids:
        return [piece]
    return [i for i in ids if piece and (i.startswith(piece) or i.endswith(piece))]


def close_matches(sessions_dir: Path | str, text: str, limit: int = 5) -> list[str]:
    """Ids that look like ``text`` (a typo in the digits), most alike first; [] if none does."""
    import difflib  # only for an id that names no session

    def likeness(session_id: str) -> float:
        parts = (session_id, session_id[-len(text):], session_id[:len(text)])
        return max(difflib.SequenceMatcher(None, text, part).ratio() for part in parts)

    scored = sorted(((likeness(i), i) for i in session_ids(sessions_dir)), key=lambda pair: -pair[0])
    return [i for score, i in scored if score >= 0.6][:limit]


def pick_session(sessions_dir: Path | str, text: str) -> str:
    """The one session ``text`` names: a whole id, or a piece of exactly one id.

    A whole id (or anything with a path separator) is returned as it is: resume()
    refuses it if it is unknown or invalid. A piece that names no session, or
    several, raises NoSuchSession listing the close matches: nothing is guessed.
    """
    if SESSION_ID_PATTERN.fullmatch(text) or "/" in text or "\\" in text:
        return text
    found = matching_sessions(sessions_dir, text)
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(found[:8]) + (f" and {len(found) - 8} more" if len(found) > 8 else "")
        raise NoSuchSession(f"{len(found)} sessions in {sessions_dir} match {text}: {shown}; "
                            f"give more of the id", found)
    near = close_matches(sessions_dir, text)
    if near:
        hint = f"close matches: {', '.join(near)}"
    elif session_ids(sessions_dir):
        hint = "python -m mca --list shows the sessions there"
    else:
        hint = "there are no sessions there"
    raise NoSuchSession(f"no session in {sessions_dir} matches {text} ({hint})", near)


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


def session_config(events: list[Event]) -> dict[str, Any] | None:
    """The model configuration the session was created with (its first event's `config`)."""
    config = events[0].fields.get("config") if events and events[0].seq == 1 else None
    return config if isinstance(config, dict) else None


def break_seq(events: list[Event]) -> int | None:
    """Where new messages cannot follow the logged ones: the seq of the first message a
    valid, complete history cannot have, or None when the session can simply go on.

    A history that ends in tool results the model never answered (killed right after
    the tool ran) is cut there too: the round starts at the assistant message that
    asked for those tools.
    """
    logged = [event for event in events if event.type == "message"]
    messages = [event.fields["message"] for event in logged]
    broken = find_break(messages)
    if broken is not None:
        return logged[broken.index].seq
    if messages and messages[-1].get("role") == "tool":
        asked = max(i for i, m in enumerate(messages) if m.get("role") == "assistant")
        return logged[asked].seq
    return None


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
        near = close_matches(sessions_dir, session_id)
        where = f"close matches: {', '.join(near)}; " if near else ""
        raise ResumeError(f"no session {session_id} in {sessions_dir} ({where}python -m mca --list shows the "
                          f"sessions there)")

    try:
        with writer_lock(path):  # a session another process is writing is refused, not forked
            size = path.stat().st_size
            result = read_events(path)
            rebuilt = replay(result.events)  # an unfinished replay() fails here, before any file is made
            notes = []
            if result.damaged:
                notes.append(stop_note(path, result))
            broken_at = break_seq(result.events)
            if result.damaged or broken_at is not None:
                return _recovery_fork(sessions_dir, session_id, result, broken_at, notes)
        # The lock is released and taken again by the writer; the size check catches a
        # process that slipped in between.
        log = SessionLog.open_append(path, result.last_seq, expected_size=size)
    except (SessionError, ForkError) as exc:
        raise ResumeError(str(exc)) from None
    return Resumed(session_id, log, rebuilt.messages, rebuilt.replayed, rebuilt.skipped, notes,
                   config=session_config(result.events))


def chain_break_seq(events: list[Event]) -> int | None:
    """The seq of the first message a valid, complete history cannot have (a tool call
    without its result included), or None when every logged message may be sent."""
    logged = [event for event in events if event.type == "message"]
    broken = find_break([event.fields["message"] for event in logged])
    return logged[broken.index].seq if broken is not None else None


def recovery_point(events: list[Event]) -> tuple[int, bool] | None:
    """Where a recovery fork starts: the last seq before the history breaks that is a fork
    point or the end of a complete tool round, and whether it is such a round end (its
    results are kept); None when there is none."""
    limit = chain_break_seq(events)
    clean = [seq for seq in fork_points(events) if limit is None or seq < limit]
    rounds = [seq for seq in round_ends(events) if limit is None or seq < limit]
    if not clean and not rounds:
        return None
    last_clean = clean[-1] if clean else 0       # fork_points lists them in log order
    last_round = rounds[-1] if rounds else 0
    if last_round > last_clean:
        return last_round, True
    return last_clean, False


def _recovery_fork(sessions_dir: Path, session_id: str, result: ReadResult, broken_at: int | None,
                   notes: list[str]) -> Resumed:
    """Continue a damaged or broken session in a new one from its last valid point before the break."""
    found = recovery_point(result.events)
    if found is None:
        raise ResumeError(
            f"session {session_id} has no clean point to continue from; start a new session "
            f"(the file is left as it was)"
        )
    at_seq, round_end = found
    if broken_at is not None and not result.damaged:
        if round_end and at_seq == result.last_seq:
            notes.append(f"the log ends after a tool round the model has not answered yet (seq {at_seq})")
        else:
            notes.append(f"the log ends in the middle of a tool round (its history breaks at seq {broken_at})")
    # a fork point goes through fork(); the end of a tool round, which fork() refuses, through
    # the provided round_end_fork (the same copy and fork event)
    child_id = (round_end_fork if round_end else fork)(sessions_dir, session_id, at_seq)
    kept = "the end of a finished tool round, its results kept" if round_end else "the last clean point"
    notes.append(f"continuing in recovery fork {child_id} from seq {at_seq} ({kept}); "
                 f"{session_id}.jsonl is left as it was")
    child = session_path(sessions_dir, child_id)
    child_result = read_events(child)
    rebuilt = replay(child_result.events)
    log = SessionLog.open_append(child, child_result.last_seq)
    return Resumed(child_id, log, rebuilt.messages, rebuilt.replayed, rebuilt.skipped, notes, forked_from=session_id,
                   config=session_config(result.events))


__all__ = [
    "NoSuchSession", "ResumeError", "Resumed", "SessionInfo", "break_seq", "chain_break_seq", "close_matches", "latest_session_id",
    "list_sessions", "matching_sessions", "pick_session", "recovery_point", "resume", "check_session_id", "session_config",
    "session_ids",
]
