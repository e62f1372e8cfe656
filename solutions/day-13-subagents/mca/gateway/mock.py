"""A mock model: deterministic, and driven only by the messages it is given.

Its next reply is a pure function of the message list. That is the point: it has
no memory of its own, exactly like a real model, so if the conversation is not
sent back in full, the mock cannot know what was said before - and a test can tell.
It refuses a history no real API would accept (gateway/chain.py), with the same kind
of error.

It streams its text in a few chunks and tool-call arguments in fragments, so the
agent loop's merging is exercised.

What it says is a script of short scenarios, one per lesson, in mock_scenarios.py: data
for the mock, which you can skip (its docstring lists what to try).
"""

from __future__ import annotations

import json
from typing import Iterator

from .base import GatewayError, StreamDelta, ToolCallChunk, Usage, rough_tokens
from .chain import find_break
from .mock_scenarios import HELP_TEXT, SCENARIOS, Conversation, Reply


class MockGateway:
    """A Gateway whose reply depends only on the messages passed in."""

    def stream(self, messages: list[dict], tools: list[dict] | None = None) -> Iterator[StreamDelta]:
        refuse_invalid(messages)
        reply = decide(messages)
        yield from stream_reply(reply, messages)


def refuse_invalid(messages: list[dict]) -> None:
    """As a real API does: a history that breaks the chain rule is a 400, not worth a retry."""
    broken = find_break(messages)
    if broken is not None:
        raise GatewayError(f"HTTP 400: invalid history: {broken.problem}", status=400)


def decide(messages: list[dict]) -> Reply:
    """Choose the next reply from the conversation so far: the first scenario that matches."""
    conversation = Conversation.of(messages)
    if conversation is None:
        return Reply(HELP_TEXT)
    for matches, answer in SCENARIOS:
        if matches(conversation):
            return answer(conversation)
    return Reply(HELP_TEXT)


# --- streaming ------------------------------------------------------------------

def stream_reply(reply: Reply, messages: list[dict]) -> Iterator[StreamDelta]:
    """Stream a Reply the way a real provider would: text chunks, call fragments, usage."""
    for piece in split_text(reply.text, 3):
        yield StreamDelta(text=piece)
    for index, (call_id, name, args) in enumerate(reply.calls):
        yield StreamDelta(tool_call=ToolCallChunk(index, id=call_id, name=name))
        arguments = args if isinstance(args, str) else json.dumps(args)  # a str: sent as it is, even broken
        for fragment in split_text(arguments, 3):
            yield StreamDelta(tool_call=ToolCallChunk(index, args=fragment))
    yield StreamDelta(usage=estimate_usage(reply, messages))
    yield StreamDelta(finish="tool_calls" if reply.calls else "stop")


def split_text(text: str, parts: int) -> list[str]:
    """Cut text into at most ``parts`` pieces that join back to exactly ``text``."""
    if not text:
        return []
    size = -(-len(text) // parts)  # ceiling division
    return [text[i:i + size] for i in range(0, len(text), size)]


def estimate_usage(reply: Reply, messages: list[dict]) -> Usage:
    """Deterministic token counts from message sizes (a mock has no real tokenizer)."""
    sent = sum(rough_tokens(message_text(m)) for m in messages)
    said = rough_tokens(reply.text + "".join(a if isinstance(a, str) else json.dumps(a) for _, _, a in reply.calls))
    return Usage(input_tokens=sent, output_tokens=said)


def message_text(message: dict) -> str:
    calls = message.get("tool_calls") or []
    return str(message.get("content", "")) + "".join(json.dumps(c.get("args", {})) for c in calls)
