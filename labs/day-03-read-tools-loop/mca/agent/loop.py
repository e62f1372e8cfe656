"""One turn of the agent: the user speaks, the model and the tools go back and forth.

A turn is a loop of model rounds. In each round the model's reply is streamed
(text goes to the screen as it arrives, tool-call chunks are merged), then every
tool call it asked for runs, and the results join the history. The loop ends when
the model answers without tool calls, or after MAX_ROUNDS rounds.

Everything that happens is reported through ``emit`` as an AgentEvent, in the order
it happens: usage, assistant message, then per tool call its ToolFinished and its
tool-result message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..gateway.base import Gateway, GatewayError, StreamDelta, ToolCallChunk, Usage, rough_tokens
from ..tools.base import ToolResult
from ..tools.registry import ToolRegistry
from .events import (AgentEvent, ErrorOccurred, MessageAdded, TextDelta, ToolFinished,
                     ToolStarted, UsageReported)

Emit = Callable[[AgentEvent], None]

MAX_ROUNDS = 8         # model rounds in one turn before the loop gives up


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


def run_turn(history: list[dict], user_text: str, *, gateway: Gateway, tools: ToolRegistry,
             emit: Emit, max_rounds: int = MAX_ROUNDS,
             ) -> str:
    """Run one turn; ``history`` grows in place. Returns the model's final text ("" if none)."""
    add_message(history, {"role": "user", "content": user_text}, emit)
    return rounds(history, gateway, tools,
                  emit, max_rounds)


def rounds(history: list[dict], gateway: Gateway, tools: ToolRegistry,
           emit: Emit, max_rounds: int,
           ) -> str:
    """Model rounds until a reply asks for no tools, or the cap."""
    for _ in range(max_rounds):
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        # TODO(E1): run every call of the reply, then ask the model again with the
        # results, until it answers without tools. For now: the first call, then stop.
        if reply.calls:
            run_call(reply.calls[0], tools, history, emit)
        return reply.text
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""


def add_message(history: list[dict], message: dict, emit: Emit) -> None:
    history.append(message)
    emit(MessageAdded(message))


# --- asking the model ------------------------------------------------------------


def collect(stream: Iterable[StreamDelta], history: list[dict], emit: Emit) -> ModelReply:
    """Show text as it streams, merge tool-call chunks by their index, and add the reply
    to the history: TextDelta per piece, then UsageReported, then MessageAdded."""
    text: list[str] = []
    pieces: dict[int, dict] = {}
    usage = None
    for delta in stream:
        if delta.text:
            text.append(delta.text)
            emit(TextDelta(delta.text))  # on the screen now, not when the reply is done
        if delta.tool_call is not None:
            merge_chunk(pieces, delta.tool_call)
        if delta.usage is not None:
            usage = delta.usage
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply("".join(text), calls, usage)
    usage = usage or estimate_usage(history, reply)  # a provider that reports none still costs tokens
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply


def merge_chunk(pieces: dict[int, dict], chunk: ToolCallChunk) -> None:
    """The first chunk of a call brings its id and name; later ones add argument text."""
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args)


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


# --- running the tools -----------------------------------------------------------


def run_call(call: ToolCall, tools: ToolRegistry, history: list[dict], emit: Emit,
             ) -> None:
    """One tool call: started, checked and run, finished, and its result added to the history."""
    emit(ToolStarted(call.id, call.name, call.args))
    result, ms = (ToolResult(False, f"error: {call.problem}") if call.problem else None), 0
    if result is None:
        started = time.monotonic()  # time the tool only, not the user deciding whether to allow it
        result = tools.run(call.name, call.args)
        ms = round((time.monotonic() - started) * 1000)
    emit(ToolFinished(call.id, call.name, result.ok, ms, len(result.content),
                      result.truncated, result.blocked_by))
    add_message(history, {"role": "tool", "tool_call_id": call.id, "content": result.content}, emit)
