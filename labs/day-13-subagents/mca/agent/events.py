"""What the agent loop tells the outside world while a turn runs.

The gateway streams ``StreamDelta``s (what the model says); the loop turns them into
``AgentEvent``s (what happened in the agent). Everything that watches a turn - the
terminal printer, the session recorder - listens to these and nothing else, so the
loop never needs to know who is watching.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

BlockedBy = Literal["approval", "loop_guard"] | None  # why a call never ran: the gate, or the loop guard


@dataclass(frozen=True)
class TextDelta:
    """A piece of the model's text, as it streams in (for the screen only)."""

    text: str


@dataclass(frozen=True)
class MessageAdded:
    """A message joined the history: user, assistant, tool result (or system)."""

    message: dict[str, Any]


@dataclass(frozen=True)
class UsageReported:
    """Tokens one model request cost."""

    input_tokens: int
    output_tokens: int




@dataclass(frozen=True)
class ToolStarted:
    """A tool call is about to run (before the approval gate)."""

    id: str
    name: str
    args: dict[str, Any]


@dataclass(frozen=True)
class ToolFinished:
    """A tool call ended: how it went, how long it took, how big its result was."""

    id: str
    name: str
    ok: bool
    ms: int
    chars: int
    truncated: bool
    blocked_by: BlockedBy = None


@dataclass(frozen=True)
class ErrorOccurred:
    """Something went wrong: `where` it happened (gateway, loop, ...).

    A request that failed and is retried (`retrying`) is still an error worth a line in
    the log; one the turn could not recover from ends it.
    """

    message: str
    where: str
    retrying: bool = False


@dataclass(frozen=True)
class PlanChanged:
    """The todo list took an update: `plan` is what a ``plan`` event holds (items, next_id)."""

    plan: dict


@dataclass(frozen=True)
class PlanReminded:
    """The loop put a plan reminder into the history (the message follows): its bill."""

    open: int    # items not done
    items: int   # items in the list
    chars: int   # of the reminder's text
    tokens: int  # the day-8 estimate of it


AgentEvent = Union[TextDelta, MessageAdded, UsageReported, ToolStarted, ToolFinished, ErrorOccurred,
                   PlanChanged, PlanReminded]
