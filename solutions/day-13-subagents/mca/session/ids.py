"""Session ids and where each session's log lives.

An id looks like ``s-20261129-102233-4f1c``: the UTC creation time to the second,
then four random hex digits in case two sessions start in the same second. Because
the time comes first, sorting ids sorts sessions by age, so "the latest session"
needs no pointer file.

An id is also part of a file path, so anything that does not match the pattern is
refused before any file is touched (``../x`` or ``/etc/passwd`` are not ids).
"""

from __future__ import annotations

import re
import secrets
import time
from datetime import datetime, timezone
from pathlib import Path

SESSION_ID_PATTERN = re.compile(r"s-[0-9]{8}-[0-9]{6}-[0-9a-f]{4}")  # ASCII digits only


class InvalidSessionId(ValueError):
    """A string that is not a session id was used as one."""


def new_session_id(now: datetime | None = None) -> str:
    """Make a fresh id from the current UTC time and four random hex digits."""
    now = now or datetime.now(timezone.utc)
    return f"s-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def fresh_session_id(sessions_dir: Path | str) -> str:
    """A new id that no session in ``sessions_dir`` has yet, and that sorts after them.

    Sessions made in the same second share the time part, so the random part is
    drawn just above the highest one already used in that second (the first one of
    a second draws from the lower half, leaving room above it). If a second's
    suffixes run out, wait for the next second: "latest by name" stays true.
    """
    directory = Path(sessions_dir)
    for _ in range(3):
        candidate = new_session_id()
        prefix = candidate[:-4]
        used = [int(p.stem[-4:], 16) for p in directory.glob(prefix + "*.jsonl")
                if SESSION_ID_PATTERN.fullmatch(p.stem)]
        if not used:
            return f"{prefix}{int(candidate[-4:], 16) & 0x7FFF:04x}"
        low = max(used) + 1
        if low <= 0xFFFF:
            return f"{prefix}{min(low + secrets.randbelow(16), 0xFFFF):04x}"
        time.sleep(1.001 - time.time() % 1)
    while True:  # the clock does not move (a frozen test clock): any free id will do
        candidate = new_session_id()
        if not (directory / f"{candidate}.jsonl").exists():
            return candidate


def check_session_id(text: object) -> str:
    """Return ``text`` if it is a well-formed session id, else raise InvalidSessionId."""
    if not isinstance(text, str) or not SESSION_ID_PATTERN.fullmatch(text):
        raise InvalidSessionId(
            f"{text!r} is not a session id (expected s-YYYYMMDD-HHMMSS-xxxx, e.g. s-20261129-102233-4f1c)"
        )
    return text


def session_path(sessions_dir: Path | str, session_id: str) -> Path:
    """The log file of a session: ``<sessions dir>/<id>.jsonl`` (the id is checked first)."""
    return Path(sessions_dir) / f"{check_session_id(session_id)}.jsonl"
