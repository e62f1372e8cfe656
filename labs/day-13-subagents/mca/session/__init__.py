"""Day 7: session persistence - an append-only event log, replay, resume and fork."""

from .fork import ForkError, fork, fork_points
from .ids import InvalidSessionId, check_session_id, new_session_id, session_path
from .log import (
    Event,
    LogDamaged,
    ReadResult,
    SessionError,
    SessionLocked,
    SessionLog,
    read_events,
)
from .replay import Replayed, estimate_tokens, replay

__all__ = [
    "Event", "ForkError", "InvalidSessionId", "LogDamaged", "ReadResult", "Replayed",
    "SessionError", "SessionLocked", "SessionLog", "check_session_id", "estimate_tokens",
    "fork", "fork_points", "new_session_id", "read_events", "replay", "session_path",
]
