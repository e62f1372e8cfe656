# [day 7+]
"""The recorder: the agent loop's events become log events.

The loop emits an event for everything that happens (a message joins the history,
the model reports its usage, a tool finishes, something fails). The recorder picks
the ones that belong in the log and writes them through ``SessionLog.append``.

When they are written matters as much as what is written. Resume can only bring
back what reached the disk, and a process can be killed at any moment.
"""

from __future__ import annotations

from typing import Any

# [day 7-10]
from ..agent.events import AgentEvent, ErrorOccurred, MessageAdded, ToolFinished, UsageReported
# [or day 11+]
from ..agent.events import (AgentEvent, ErrorOccurred, MessageAdded, PlanChanged, PlanReminded, ToolFinished,
                            UsageReported)
# [/day]
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
    # [day 11+]
    if isinstance(event, PlanChanged):
        return "plan", dict(event.plan)  # the list as it now stands: what resume rebuilds it from
    if isinstance(event, PlanReminded):
        return "reminded", {"open": event.open, "items": event.items, "chars": event.chars, "tokens": event.tokens}
    # [/day]
    return None


class SessionRecorder:
    """Writes the log events of one session, in the order the agent emits them."""

    # BEGIN SOLUTION day-07 E1
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
    # END SOLUTION day-07 E1
    # BEGIN SCAFFOLD day-07 E1
    # def __init__(self, log: SessionLog) -> None:
    #     self.log = log
    #     self.written: list[Event] = []
    #     self.pending: list[AgentEvent] = []
    #
    # def handle(self, event: AgentEvent) -> None:
    #     # TODO(E1): write the log event as soon as the agent event arrives.
    #     # Keeping the turn in memory until end_turn() works for a clean turn, but a
    #     # process killed mid-turn (a long test run, Ctrl+C, a closed terminal) loses
    #     # every event of that turn, and resume cannot bring back what never reached
    #     # the disk.
    #     self.pending.append(event)
    #
    # def end_turn(self) -> None:
    #     for event in self.pending:
    #         entry = to_log_event(event)
    #         if entry is not None:
    #             kind, fields = entry
    #             self.written.append(self.log.append(kind, **fields))
    #     self.pending.clear()
    # END SCAFFOLD day-07 E1
# [/day]
