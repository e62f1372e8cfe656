"""The session log: one JSON event per line, appended and never rewritten.

Why a log and not a session object? Rewriting one JSON file every turn costs the
whole file each time, and a crash half-way through the rewrite loses everything.
Appending only ever touches the end of the file, so the one thing that can go wrong
is the last line: a process killed in the middle of a write leaves it incomplete.
Reading is built around that single failure mode: it stops at the first line it
cannot trust and says where and why.

Every line carries three fields before its own ones:

* ``seq``  - 1 for the first event of a file, +1 per event: lets a person (or a fork)
  point at "event 8";
* ``ts``   - ISO-8601 UTC time: when it happened, for audit;
* ``type`` - ``message``, ``tool_end``, ``usage``, ``error`` or ``fork``: says which
  fields follow.
"""

from __future__ import annotations

import gc
import json
import os
from collections import namedtuple
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from .ids import InvalidSessionId, check_session_id, fresh_session_id, session_path

try:  # file locks are POSIX-only; elsewhere the single-writer rule is not enforced
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

KNOWN_TYPES = ("message", "tool_end", "usage", "error", "fork", "injected", "recalled",  # bills of injections
               "plan", "reminded",  # plan: the todo list after an update; reminded: the plan reminder's bill
               "compacted",  # compacted: the summary that replaces the older rounds (replay honours it)
               "subagent", "task_answer")  # subagent: a side task's log; task_answer: the bill of its answer
_decode_object = json.JSONDecoder().raw_decode
REQUIRED_FIELDS = ("seq", "ts", "type")


class SessionError(RuntimeError):
    """A problem with the session store, worded for the user."""


class SessionLocked(SessionError):
    """Another process is writing this session."""


class LogDamaged(SessionError):
    """The log cannot take new events (its last line is incomplete, or it changed)."""


class Event(namedtuple("Event", "seq ts type fields")):
    """One line of the log: ``seq``, ``ts``, ``type`` and the event's own ``fields``.

    A named tuple, so an event cannot be changed once read, and making one costs little:
    a reader makes one per line, a hundred thousand for a long session.
    """

    __slots__ = ()

    def __new__(cls, seq: int, ts: str, type: str, fields: dict[str, Any] | None = None) -> "Event":
        return super().__new__(cls, seq, ts, type, {} if fields is None else fields)

    @property
    def message(self) -> dict[str, Any] | None:
        """The message of a ``message`` event; None for every other type."""
        return self.fields.get("message") if self.type == "message" else None

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "type": self.type, **self.fields}


@dataclass(frozen=True)
class ReadResult:
    """What reading a log gave: the trusted events, and where and why reading stopped."""

    events: list[Event]
    stopped_at: int | None = None  # line number of the first bad line, if any
    reason: str | None = None

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def damaged(self) -> bool:
        return self.stopped_at is not None


def utc_timestamp() -> str:
    """Now, as ISO-8601 UTC with milliseconds: ``2026-11-29T10:22:33.123Z``."""
    now = datetime.now(timezone.utc)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_line(raw: bytes, previous_seq: int) -> tuple[Event | None, str | None]:
    """Turn one complete line into an Event, or say why it cannot be trusted.

    Returns ``(event, None)`` or ``(None, reason)``. An unknown ``type`` is fine:
    logs outlive code, and old code must still load what newer code wrote.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not valid UTF-8"
    try:  # a line as the log writes it, one object and its newline, is decoded in one call
        data, end = _decode_object(text)
        whole = text[end:] == "\n"
    except (ValueError, RecursionError):
        whole = False
    if not whole:  # anything else (spaces around it, damage) is for json.loads to decide
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
            return None, "not valid JSON"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    if "seq" not in data or "ts" not in data or "type" not in data:
        missing = [name for name in REQUIRED_FIELDS if name not in data]
        return None, f"missing {', '.join(missing)}"
    seq, ts, kind = data.pop("seq"), data.pop("ts"), data.pop("type")
    if type(seq) is not int:
        return None, "seq is not an integer"
    if not isinstance(ts, str) or not isinstance(kind, str):
        return None, "ts and type must be strings"
    if seq != previous_seq + 1:
        # Lower or repeated: two writers, or a spliced file. Higher: a line is missing,
        # and what follows may answer a message that is gone. Either way, stop.
        return None, _seq_problem(seq, previous_seq)
    if kind == "message" and not _is_message(data.get("message")):
        return None, "message event without a valid message object"
    return Event(seq, ts, kind, data), None


def _seq_problem(seq: int, previous_seq: int) -> str:
    if seq > previous_seq + 1:
        return f"seq {seq} skips {previous_seq + 1}: a line is missing"
    if seq == previous_seq:
        return f"seq {seq} repeats the line before"
    return f"seq {seq} goes back (the line before has {previous_seq})"


def _is_message(message: object) -> bool:
    """A message rebuilds the history the model sees, so its shape is checked too."""
    return (isinstance(message, dict) and isinstance(message.get("role"), str)
            and isinstance(message.get("tool_calls", []), list))


def read_events(path: Path | str) -> ReadResult:
    """Read a log and stop at the first line that cannot be trusted.

    Never changes the file. A last line without its newline is torn (the writer
    died mid-write) even if it happens to parse.
    """
    events: list[Event] = []
    previous_seq = 0
    with open(path, "rb") as handle, _cycle_collector_paused():
        for line_number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return ReadResult(events, line_number, "last line incomplete")
            event, problem = parse_line(raw, previous_seq)
            if event is None:
                # Stop, do not skip: appending never damages the middle of a file,
                # so a bad line here means something else touched it. Guessing
                # past it could stitch two histories together.
                return ReadResult(events, line_number, problem)
            events.append(event)
            previous_seq = event.seq
    return ReadResult(events)


@contextmanager
def _cycle_collector_paused():
    """Python's cycle collector looks at new objects every few hundred allocations and, as
    the heap grows, at everything made so far, again and again. Nothing a reader makes
    refers back to itself, so while the event list is built it is paused: each object is
    looked at about once, when it resumes, instead of several times."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def lines_after(path: Path | str, line_number: int) -> int:
    """How many lines of the file come after line ``line_number`` (a last one without its
    newline counts too): what a reader that stopped there left unread."""
    count = 0
    with open(path, "rb") as handle:
        for number, _raw in enumerate(handle, start=1):
            if number > line_number:
                count += 1
    return count


def stop_note(path: Path | str, result: ReadResult) -> str | None:
    """Where and why reading stopped, and how much of the file that left unread:
    ``log stopped at line 12: not valid JSON; the 7 lines after it were not read``."""
    if not result.damaged:
        return None
    note = f"log stopped at line {result.stopped_at}: {result.reason}"
    try:
        later = lines_after(path, int(result.stopped_at))
    except (OSError, TypeError, ValueError):  # a reader still being written may report anything
        return note
    if later == 1:
        note += "; the line after it was not read"
    elif later:
        note += f"; the {later} lines after it were not read"
    return note


def fsync_requested() -> bool:
    """``MCA_FSYNC=1`` makes every append survive a power loss, at a cost per event."""
    return os.environ.get("MCA_FSYNC", "") not in ("", "0")


def fsync_directory(directory: Path) -> None:
    """Make a new file's name durable too (fsync of the file alone does not)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def prepare_sessions_dir(sessions_dir: Path) -> Path:
    """Create the sessions dir if needed, with messages that name the fix."""
    if sessions_dir.exists() and not sessions_dir.is_dir():
        raise SessionError(f"sessions dir {sessions_dir} is a file; pass --sessions-dir DIR with a directory")
    if sessions_dir.is_dir():
        return sessions_dir
    try:
        sessions_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SessionError(f"cannot create sessions dir {sessions_dir}: {exc.strerror}") from exc
    if fsync_requested():
        fsync_directory(sessions_dir.parent)  # the new directory's own name
    return sessions_dir


class SessionLog:
    """The only writer of a session's log: one O_APPEND write per event.

    It holds an exclusive lock on the file while open, so a second process
    resuming the same session is refused instead of interleaving its lines.
    The kernel drops the lock when the process dies, so a killed process never
    leaves a stale lock behind.
    """

    def __init__(self, path: Path, fd: int, next_seq: int) -> None:
        self.path = path
        self.session_id = path.stem
        self.next_seq = next_seq
        self._fd: int | None = fd
        self._fsync = fsync_requested()
        self._broken: str | None = None  # why appends are refused after a failed write

    @classmethod
    def create(cls, sessions_dir: Path | str, session_id: str | None = None) -> "SessionLog":
        """Start a new, empty session log (a fresh id unless one is given)."""
        if session_id is not None:
            check_session_id(session_id)  # before anything is created
        directory = prepare_sessions_dir(Path(sessions_dir))
        for _ in range(20):
            candidate = session_id if session_id is not None else fresh_session_id(directory)
            path = session_path(directory, candidate)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                if session_id is not None:
                    raise SessionError(f"session {session_id} already exists in {directory}") from None
                continue  # same second, same random digits: draw again
            except OSError as exc:
                raise SessionError(f"cannot write in sessions dir {directory}: {exc.strerror}") from exc
            log = cls(path, fd, next_seq=1)
            log._lock()
            if log._fsync:
                fsync_directory(directory)
            return log
        raise SessionError(f"could not find a free session id in {directory}")

    @classmethod
    def open_append(cls, path: Path | str, last_seq: int, expected_size: int | None = None) -> "SessionLog":
        """Continue an existing log whose last trusted event has ``last_seq``.

        Refuses a file whose last line is incomplete (new events must never be
        glued onto a torn line) and, when ``expected_size`` is given, a file that
        grew or shrank since it was read.
        """
        path = Path(path)
        check_session_id(path.stem)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise SessionError(f"cannot open {path} for appending: {exc.strerror}") from exc
        log = cls(path, fd, next_seq=last_seq + 1)
        try:
            log._lock()
            size = os.fstat(fd).st_size
            if expected_size is not None and size != expected_size:
                raise LogDamaged(f"{path.name} changed while it was being read; try again")
            if size and _last_byte(path, size) != b"\n":
                raise LogDamaged(f"{path.name} ends in an incomplete line; new events cannot follow it")
        except BaseException:
            log.close()
            raise
        return log

    def _lock(self) -> None:
        if self._fd is None:
            return
        try:
            _flock(self._fd, self.session_id)
        except SessionLocked:
            self.close()
            raise

    def append(self, type: str, **fields: Any) -> Event:
        """Write one event as one line and return it. The line is in the file when this returns."""
        if self._broken:
            raise LogDamaged(self._broken)
        if self._fd is None:
            raise SessionError(f"session {self.session_id} is closed")
        event = Event(self.next_seq, utc_timestamp(), type, fields)
        line = (json.dumps(event.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
        view = memoryview(line)
        try:
            while view:  # one write; the loop only runs again if the kernel took part of it
                written = os.write(self._fd, view)
                view = view[written:]
            if self._fsync:
                os.fsync(self._fd)
        except OSError as exc:
            # Part of the line may be in the file: anything appended now would be glued
            # to it. Refuse from here on; resume continues in a recovery fork.
            self._broken = (f"writing {self.path.name} failed ({exc.strerror}); resume the session "
                            "to continue in a recovery fork")
            raise LogDamaged(self._broken) from exc
        self.next_seq += 1
        return event

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None

    def __enter__(self) -> "SessionLog":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _flock(fd: int, session_id: str) -> None:
    """Take the session's writer lock, or say who has it."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SessionLocked(
            f"session {session_id} is open in another process; finish that one first "
            f"(or fork it: python -m mca fork {session_id} N)"
        ) from None


@contextmanager
def writer_lock(path: Path) -> Iterator[None]:
    """Hold a session's writer lock while deciding what to do with it (e.g. in resume).

    A session being written by a live process is refused here, before it is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise SessionError(f"cannot open {path}: {exc.strerror}") from exc
    try:
        _flock(fd, path.stem)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(size - 1)
        return handle.read(1)


__all__ = [
    "Event", "ReadResult", "SessionLog", "SessionError", "SessionLocked", "LogDamaged",
    "InvalidSessionId", "KNOWN_TYPES", "lines_after", "parse_line", "read_events", "stop_note", "utc_timestamp",
    "writer_lock",
]
