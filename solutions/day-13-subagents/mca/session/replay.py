"""Replay: rebuild the conversation from the log.

The model has no memory. Every request carries the whole message list, and after a
restart that list exists only in the log. Replay carries it back.

Only ``message`` events rebuild the list. A tool's result already has its own
``tool`` message; ``tool_end`` adds what people want to know (how long, how many
characters, was it blocked) and ``usage``, ``error`` and ``fork`` are for audit and
lineage. Rebuilding from them too would put tool results in the history twice.

Day 12: a ``compacted`` event changes the list the way compaction changed it in the
process that wrote it: the system messages the session started with, then the
summary, then the messages logged after ``upto_seq``. The log itself keeps every
message (it is append-only), so a fork before the compaction still has them all.
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
    """Rebuild messages from message events, in log order, as every ``compacted`` event
    left them; count every other event as skipped.

    Events of a type this code does not know are skipped too: they are not damage.
    """
    messages: list[dict[str, Any]] = []
    seqs: list[int] = []  # the seq each message of ``messages`` is known by
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
            seqs.append(event.seq)
            continue
        skipped += 1
        if event.type == "compacted":
            messages, seqs = after_compaction(messages, seqs, event)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)


def after_compaction(messages: list[dict[str, Any]], seqs: list[int],
                     event: Event) -> tuple[list[dict[str, Any]], list[int]]:
    """The messages as a ``compacted`` event left them, and their seqs.

    The system messages the list starts with stay; then comes the summary, as one user
    message holding ``event.fields["summary"]`` (known by the seq ``upto_seq``, so a later
    compaction, which always summarises it, drops it); then every message logged after
    ``upto_seq``.
    """
    upto = event.fields.get("upto_seq")
    summary = event.fields.get("summary")
    if not isinstance(upto, int) or not isinstance(summary, str):
        return messages, seqs  # not a compaction this code can apply: the list as it was
    start = 0
    while start < len(messages) and messages[start].get("role") == "system":
        start += 1
    later = [k for k in range(start, len(messages)) if seqs[k] > upto]
    return (messages[:start] + [{"role": "user", "content": summary}] + [messages[k] for k in later],
            seqs[:start] + [upto] + [seqs[k] for k in later])


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
