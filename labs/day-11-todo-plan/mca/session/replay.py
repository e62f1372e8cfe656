"""Replay: rebuild the conversation from the log.

The model has no memory. Every request carries the whole message list, and after a
restart that list exists only in the log. Replay carries it back.

Only ``message`` events rebuild the list. A tool's result already has its own
``tool`` message; ``tool_end`` adds what people want to know (how long, how many
characters, was it blocked) and ``usage``, ``error`` and ``fork`` are for audit and
lineage. Rebuilding from them too would put tool results in the history twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from .log import Event


@dataclass
class Replayed:
    """The rebuilt message list, and how many events did and did not go into it."""

    messages: list[dict[str, Any]]
    replayed: int
    skipped: int


def replay(events: Iterable[Event]) -> Replayed:
    """Rebuild messages from message events, in log order; count every other event as skipped.

    Events of a type this code does not know are skipped too: they are not damage.
    """
    messages: list[dict[str, Any]] = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)


def estimate_tokens(messages: Iterable[dict[str, Any]]) -> int:
    """A rough token count of a message list (about four characters a token).

    Good enough to show how big the history has grown; not a billing figure.
    """
    chars = 0
    for message in messages:
        chars += len(str(message.get("content") or ""))
        for call in message.get("tool_calls") or []:
            chars += len(call.get("name", "")) + len(json.dumps(call.get("args", {})))
    return (chars + 3) // 4
