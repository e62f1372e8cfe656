"""The recorder: the agent loop's events become log events.

The loop emits an event for everything that happens (a message joins the history,
the model reports its usage, a tool finishes, something fails). The recorder picks
the ones that belong in the log and writes them through ``SessionLog.append``.

When they are written matters as much as what is written. Resume can only bring
back what reached the disk, and a process can be killed at any moment.
"""

from __future__ import annotations

from typing import Any

from ..agent.events import (AgentEvent, ErrorOccurred, MessageAdded, PlanChanged, PlanReminded, ToolFinished,
                            UsageReported)
from .log import Event, SessionLog


def to_log_event(event: AgentEvent) -> tuple[str, dict[str, Any]] | None:
    """The log type and fields for an agent event, or None if it is not logged.

    Text deltas and tool starts are for the screen only: the finished message and
    the tool's end carry everything the log needs.
    """
    if isinstance(event, MessageAdded):
        return "message", {"message": event.message}
    if isinstance(event, UsageReported):
        return "usage", {"input_tokens": event.input_tokens, "output_tokens": event.output_tokens}
    if isinstance(event, ToolFinished):
        return "tool_end", {
            "id": event.id,
            "name": event.name,
            "ok": event.ok,
            "ms": event.ms,
            "chars": event.chars,
            "truncated": event.truncated,
            "blocked_by": event.blocked_by,
        }
    if isinstance(event, ErrorOccurred):
        return "error", {"message": event.message, "where": event.where}
    if isinstance(event, PlanChanged):
        return "plan", dict(event.plan)  # the list as it now stands: what resume rebuilds it from
    if isinstance(event, PlanReminded):
        return "reminded", {"open": event.open, "items": event.items, "chars": event.chars, "tokens": event.tokens}
    return None


class SessionRecorder:
    """Writes the log events of one session, in the order the agent emits them."""

    def __init__(self, log: SessionLog) -> None:
        self.log = log
        self.written: list[Event] = []

    def handle(self, event: AgentEvent) -> None:
        """Write the log event for ``event`` now, before the agent takes its next step."""
        entry = to_log_event(event)
        if entry is not None:
            kind, fields = entry
            self.written.append(self.log.append(kind, **fields))

    def end_turn(self) -> None:
        """Nothing to do: every event reached the disk when it happened."""
