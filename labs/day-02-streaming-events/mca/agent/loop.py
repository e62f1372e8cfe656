"""One reply of the model: stream it, show it as it comes, put it back together.

The gateway streams ``StreamDelta``s; ``collect`` turns them into ``AgentEvent``s as
they arrive (text goes to the screen at once) and, at the end, into one assistant
message for the history. Tool calls arrive as fragments that share an ``index``;
``merge_chunk`` puts each call back together. There are no tools to run yet (day 3
adds them): a call the model makes is answered with a result that says so, so the
history stays valid.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..gateway.base import Gateway, GatewayError, StreamDelta, ToolCallChunk, Usage, rough_tokens
from .events import AgentEvent, ErrorOccurred, MessageAdded, TextDelta, UsageReported

Emit = Callable[[AgentEvent], None]


@dataclass
class ToolCall:
    """A merged tool call. ``problem`` is set when its arguments were not valid JSON."""

    id: str
    name: str
    args: dict
    problem: str | None = None


@dataclass
class ModelReply:
    """One streamed reply, put back together."""

    text: str
    calls: list[ToolCall] = field(default_factory=list)
    usage: Usage | None = None


def run_turn(history: list[dict], user_text: str, *, gateway: Gateway, emit: Emit) -> str:
    """One request and its reply; ``history`` grows in place. Returns the reply's text."""
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        reply = collect(gateway.stream(list(history)), history, emit)
    except GatewayError as exc:
        emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
        return ""
    for call in reply.calls:  # no tools before day 3: the result says so, and the history stays valid
        add_message(history, {"role": "tool", "tool_call_id": call.id,
                              "content": "error: this agent has no tools yet"}, emit)
    return reply.text


def add_message(history: list[dict], message: dict, emit: Emit) -> None:
    history.append(message)
    emit(MessageAdded(message))


# --- asking the model ------------------------------------------------------------


def collect(stream: Iterable[StreamDelta], history: list[dict], emit: Emit) -> ModelReply:
    """Show text as it streams, merge tool-call chunks by their index, and add the reply
    to the history: TextDelta per piece, then UsageReported, then MessageAdded."""
    raise NotImplementedError(
        "TODO(E3): emit a TextDelta for each text piece as it arrives, merge tool-call chunks, "
        "then emit UsageReported and add the assistant message to the history")


def merge_chunk(pieces: dict[int, dict], chunk: ToolCallChunk) -> None:
    """The first chunk of a call brings its id and name; later ones add argument text."""
    if chunk.id or not pieces:  # a new call starts
        pieces[len(pieces)] = {"id": chunk.id, "name": chunk.name, "args": []}
    pieces[len(pieces) - 1]["args"].append(chunk.args)  # more arguments for the current call


def finish_call(index: int, piece: dict) -> ToolCall:
    """Parse the joined argument text; bad JSON becomes a problem to report, not a crash."""
    raw = "".join(piece["args"]).strip() or "{}"
    call_id = piece["id"] or f"call_unnamed_{index}"
    name = piece["name"] or ""
    try:
        args = json.loads(raw)
    except ValueError as exc:
        return ToolCall(call_id, name, {}, f"the arguments were not valid JSON ({exc}): {raw[:200]}")
    if not isinstance(args, dict):
        return ToolCall(call_id, name, {}, f"the arguments must be a JSON object, got: {raw[:200]}")
    return ToolCall(call_id, name, args)


def assistant_message(reply: ModelReply) -> dict:
    message: dict = {"role": "assistant", "content": reply.text}
    if reply.calls:  # omitted when empty: a plain answer has no tool_calls key at all
        message["tool_calls"] = [{"id": c.id, "name": c.name, "args": c.args} for c in reply.calls]
    return message


def estimate_usage(history: list[dict], reply: ModelReply) -> Usage:
    """For providers that report no usage: a rough count, so every round still logs one."""
    sent = sum(rough_tokens(json.dumps(m, ensure_ascii=False)) for m in history)
    said = rough_tokens(reply.text + "".join(json.dumps(c.args) for c in reply.calls))
    return Usage(sent, said)
