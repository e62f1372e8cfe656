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
from datetime import datetime, timezone
from pathlib import Path

SESSION_ID_PATTERN = re.compile(r"s-\d{8}-\d{6}-[0-9a-f]{4}")


class InvalidSessionId(ValueError):
    """A string that is not a session id was used as one."""


def new_session_id(now: datetime | None = None) -> str:
    """Make a fresh id from the current UTC time and four random hex digits."""
    now = now or datetime.now(timezone.utc)
    return f"s-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def fresh_session_id(sessions_dir: Path | str) -> str:
    """A new id that no session in ``sessions_dir`` has yet, and that sorts after them.

    Sessions made in the same second share the time part; picking the random part
    just above the highest one already used keeps "latest by name" true even then.
    """
    candidate = new_session_id()
    prefix = candidate[:-4]
    used = [int(p.stem[-4:], 16) for p in Path(sessions_dir).glob(prefix + "*.jsonl")]
    if not used:
        return candidate
    suffix = max(used) + 1 + secrets.randbelow(16)
    if suffix <= 0xFFFF:
        return f"{prefix}{suffix:04x}"
    while (Path(sessions_dir) / f"{candidate}.jsonl").exists():  # this second is used up
        candidate = new_session_id()
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
