# [day 2+]
# [day 2]
"""One reply of the model: stream it, show it as it comes, put it back together.

The gateway streams ``StreamDelta``s; ``collect`` turns them into ``AgentEvent``s as
they arrive (text goes to the screen at once) and, at the end, into one assistant
message for the history. Tool calls arrive as fragments that share an ``index``;
``merge_chunk`` puts each call back together. There are no tools to run yet (day 3
adds them): a call the model makes is answered with a result that says so, so the
history stays valid.
"""
# [or day 3+]
"""One turn of the agent: the user speaks, the model and the tools go back and forth.

A turn is a loop of model rounds. In each round the model's reply is streamed
(text goes to the screen as it arrives, tool-call chunks are merged), then every
tool call it asked for runs, and the results join the history. The loop ends when
the model answers without tool calls, or after MAX_ROUNDS rounds.

Everything that happens is reported through ``emit`` as an AgentEvent, in the order
it happens: usage, assistant message, then per tool call its ToolFinished and its
tool-result message.
# [day 5+]

Day 5 put the approval gate in front of every call: a "no" comes back as the call's
result, and the turn goes on.
# [/day]
# [day 6+]

Day 6 made the loop robust: failed requests are retried when it may help, with
growing pauses; a call repeated over and over is blocked; Ctrl-C cancels the turn
and leaves a history in which every call has a result.
# [/day]
"""
# [/day]

from __future__ import annotations

import json
# [day 6+]
import random
# [/day]
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..gateway.base import Gateway, GatewayError, StreamDelta, ToolCallChunk, Usage, rough_tokens
# [day 3+]
from ..tools.base import ToolResult
from ..tools.registry import ToolRegistry
# [/day]
# [day 5+]
from ..tools.approval import Approver
# [/day]
# [day 11+]
from ..plan import TodoList, reminder_text, should_remind
from ..plan.remind import REMIND_AFTER
from ..plan.todo import TODO_TOOL
from ..refs.bill import estimate_tokens
# [/day]
# [day 2]
from .events import AgentEvent, ErrorOccurred, MessageAdded, TextDelta, UsageReported
# [or day 3-10]
from .events import (AgentEvent, ErrorOccurred, MessageAdded, TextDelta, ToolFinished,
                     ToolStarted, UsageReported)
# [or day 11+]
from .events import (AgentEvent, ErrorOccurred, MessageAdded, PlanChanged, PlanReminded, TextDelta,
                     ToolFinished, ToolStarted, UsageReported)
# [/day]

Emit = Callable[[AgentEvent], None]
# [day 3+]

MAX_ROUNDS = 8         # model rounds in one turn before the loop gives up
# [/day]
# [day 6+]
RETRIES = 3            # extra attempts after the first failed request
BACKOFF_SECONDS = 0.5  # first pause; doubles each time
BACKOFF_CAP = 8.0      # no single pause is longer than this
RETRY_AFTER_CAP = 120  # seconds: a server asking for longer than this gets this
RETRYABLE_STATUS = {408, 409, 429}  # and every 5xx
MAX_REPEATS = 2        # the same call a third time in one turn is blocked
# [/day]


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
# [day 2]


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
# [or day 3+]


def run_turn(history: list[dict], user_text: str, *, gateway: Gateway, tools: ToolRegistry,
             # [day 5+]
             approver: Approver,
             # [/day]
             emit: Emit, max_rounds: int = MAX_ROUNDS,
             # [day 6+]
             retries: int = RETRIES, sleep: Callable[[float], None] = time.sleep,
             # [/day]
             # [day 11+]
             plan: TodoList | None = None,
             # [/day]
             ) -> str:
    """Run one turn; ``history`` grows in place. Returns the model's final text ("" if none)."""
    add_message(history, {"role": "user", "content": user_text}, emit)
    # [day 3-5]
    return rounds(history, gateway, tools,
                  # [day 5]
                  approver,
                  # [/day]
                  emit, max_rounds)
    # [or day 6+]
    # BEGIN SOLUTION day-06 E3
    try:
        # [day 6-10]
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
        # [or day 11+]
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep, plan)
        # [/day]
    except KeyboardInterrupt:
        # Ctrl-C: stop the turn, not the program, and leave every tool call with a result.
        close_dangling_calls(history, emit)
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
    # END SOLUTION day-06 E3
    # BEGIN SCAFFOLD day-06 E3
    # # TODO(E3): Ctrl-C during a turn goes straight up and ends the program, and the
    # # history keeps a tool call without its result.
    # return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    # END SCAFFOLD day-06 E3
    # [/day]


def rounds(history: list[dict], gateway: Gateway, tools: ToolRegistry,
           # [day 5+]
           approver: Approver,
           # [/day]
           emit: Emit, max_rounds: int,
           # [day 6+]
           retries: int, sleep: Callable[[float], None],
           # [/day]
           # [day 11+]
           plan: TodoList | None = None,
           # [/day]
           ) -> str:
    """Model rounds until a reply asks for no tools, or the cap."""
    # [day 6+]
    guard = LoopGuard()
    # [/day]
    for _ in range(max_rounds):
        # [day 11+]
        if plan is not None and should_remind(history, plan):
            remind(history, plan, emit)  # before the request: the model reads it with the results
        # [/day]
        # [day 3-5]
        try:
            reply = collect(gateway.stream(list(history), tools.schemas()), history, emit)
        except GatewayError as exc:
            emit(ErrorOccurred(f"model request failed: {exc}", "gateway"))
            return ""
        # [or day 6+]
        reply = request_with_retry(gateway, history, tools.schemas(), emit, retries, sleep)
        if reply is None:
            return ""  # the failure is already reported as an ErrorOccurred
        # [/day]
        # BEGIN SOLUTION day-03 E1
        if not reply.calls:
            return reply.text
        for call in reply.calls:  # every call gets its result, in the order the model asked
            # [day 3-4]
            run_call(call, tools, history, emit)
            # [or day 5]
            run_call(call, tools, history, emit, approver=approver)
            # [or day 6-10]
            run_call(call, tools, history, emit, approver=approver, guard=guard)
            # [or day 11+]
            run_call(call, tools, history, emit, approver=approver, guard=guard, plan=plan)
            # [/day]
        # END SOLUTION day-03 E1
        # BEGIN SCAFFOLD day-03 E1
        # # TODO(E1): run every call of the reply, then ask the model again with the
        # # results, until it answers without tools. For now: the first call, then stop.
        # if reply.calls:
        #     run_call(reply.calls[0], tools, history, emit)
        # return reply.text
        # END SCAFFOLD day-03 E1
    emit(ErrorOccurred(f"stopped after {max_rounds} model rounds without a final answer", "loop"))
    return ""
# [/day]


def add_message(history: list[dict], message: dict, emit: Emit) -> None:
    history.append(message)
    emit(MessageAdded(message))


# --- asking the model ------------------------------------------------------------
# [day 6+]

def request_with_retry(gateway: Gateway, history: list[dict], schemas: list[dict], emit: Emit,
                       retries: int, sleep: Callable[[float], None]) -> ModelReply | None:
    """Stream one reply, retrying a failed request when trying again may help.

    Never after the reply started to stream: its first words are on the screen
    already, and a second copy would follow them.
    """
    for attempt in range(retries + 1):
        arrived: list[StreamDelta] = []
        try:
            return collect(watched(gateway.stream(list(history), schemas), arrived), history, emit)
        except GatewayError as exc:
            if arrived or not should_retry(exc) or attempt == retries:
                emit(ErrorOccurred(f"model request failed after {attempt + 1} attempt(s): {exc}", "gateway"))
                return None
            delay = backoff_delay(attempt, exc.retry_after)
            emit(ErrorOccurred(f"model request failed: {exc}; trying again in {round(delay, 2):g} s", "gateway",
                               retrying=True))
            sleep(delay)
    return None


def watched(stream: Iterable[StreamDelta], arrived: list) -> Iterable[StreamDelta]:
    """The same stream, noting in ``arrived`` that something came."""
    for delta in stream:
        arrived.append(True)
        yield delta


def should_retry(exc: GatewayError) -> bool:
    """Retry what is transient, and only that."""
    # BEGIN SOLUTION day-06 E1
    if exc.status is None:
        return exc.transient  # refused, reset, timed out: the next attempt may get through
    return exc.status in RETRYABLE_STATUS or exc.status >= 500
    # END SOLUTION day-06 E1
    # BEGIN SCAFFOLD day-06 E1
    # return True  # a failed request is worth another go
    # END SCAFFOLD day-06 E1


def backoff_delay(attempt: int, retry_after: float | None = None) -> float:
    """Seconds to wait before attempt ``attempt + 1``."""
    # BEGIN SOLUTION day-06 E2
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)  # the server knows best when it will have room
    # 0.5 s, 1 s, 2 s, ... capped; the jitter keeps many clients from retrying in step.
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
    # END SOLUTION day-06 E2
    # BEGIN SCAFFOLD day-06 E2
    # # TODO(E2): wait longer after each failure (exponential, capped, with jitter), and
    # # wait exactly as long as a Retry-After header asks, when the server sends one.
    # return 1.0
    # END SCAFFOLD day-06 E2
# [/day]


def collect(stream: Iterable[StreamDelta], history: list[dict], emit: Emit) -> ModelReply:
    """Show text as it streams, merge tool-call chunks by their index, and add the reply
    to the history: TextDelta per piece, then UsageReported, then MessageAdded."""
    # BEGIN SOLUTION day-02 E3
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
    # END SOLUTION day-02 E3
    # BEGIN SCAFFOLD day-02 E3
    # raise NotImplementedError(
    #     "TODO(E3): emit a TextDelta for each text piece as it arrives, merge tool-call chunks, "
    #     "then emit UsageReported and add the assistant message to the history")
    # END SCAFFOLD day-02 E3


def merge_chunk(pieces: dict[int, dict], chunk: ToolCallChunk) -> None:
    """The first chunk of a call brings its id and name; later ones add argument text."""
    # BEGIN SOLUTION day-02 E2
    piece = pieces.setdefault(chunk.index, {"id": None, "name": None, "args": []})
    piece["id"] = piece["id"] or chunk.id
    piece["name"] = piece["name"] or chunk.name
    piece["args"].append(chunk.args)
    # END SOLUTION day-02 E2
    # BEGIN SCAFFOLD day-02 E2
    # if chunk.id or not pieces:  # a new call starts
    #     pieces[len(pieces)] = {"id": chunk.id, "name": chunk.name, "args": []}
    # pieces[len(pieces) - 1]["args"].append(chunk.args)  # more arguments for the current call
    # END SCAFFOLD day-02 E2


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
# [day 3+]


# --- running the tools -----------------------------------------------------------
# [day 6+]

class LoopGuard:
    """Blocks a call (same tool, same arguments) made more than MAX_REPEATS times in a turn.

    A model that keeps repeating a call is stuck; running it again will not unstick
    it, and each round costs tokens. Telling it so, as a tool result, usually does.
    """

    def __init__(self, max_repeats: int = MAX_REPEATS) -> None:
        self.max_repeats = max_repeats
        self.seen: dict[str, int] = {}

    def blocks(self, call: ToolCall) -> bool:
        # BEGIN SOLUTION day-06 E4
        key = call.name + " " + json.dumps(call.args, sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] > self.max_repeats
        # END SOLUTION day-06 E4
        # BEGIN SCAFFOLD day-06 E4
        # return False  # TODO(E4): count each (tool, arguments) and block the third time
        # END SCAFFOLD day-06 E4
# [/day]


def run_call(call: ToolCall, tools: ToolRegistry, history: list[dict], emit: Emit,
             # [day 5+]
             *, approver: Approver,
             # [/day]
             # [day 6+]
             guard: LoopGuard,
             # [/day]
             # [day 11+]
             plan: TodoList | None = None,
             # [/day]
             ) -> None:
    """One tool call: started, checked and run, finished, and its result added to the history."""
    emit(ToolStarted(call.id, call.name, call.args))
    # [day 3-4]
    result, ms = (ToolResult(False, f"error: {call.problem}") if call.problem else None), 0
    # [or day 5]
    result, ms = refusal(call, approver), 0
    # [or day 6+]
    result, ms = refusal(call, approver, guard), 0
    # [/day]
    if result is None:
        started = time.monotonic()  # time the tool only, not the user deciding whether to allow it
        # [day 3-12]
        result = tools.run(call.name, call.args)
        # [or day 13+]
        result = tools.run(call.name, call.args, call.id)  # the id: a side task's log names the call it answers
        # [/day]
        ms = round((time.monotonic() - started) * 1000)
    emit(ToolFinished(call.id, call.name, result.ok, ms, len(result.content),
                      result.truncated, result.blocked_by))
    add_message(history, {"role": "tool", "tool_call_id": call.id, "content": result.content}, emit)
    # [day 11+]
    if plan is not None and call.name == TODO_TOOL and result.ok:
        emit(PlanChanged(plan.record()))  # shown and logged after the result the model reads
    # [/day]
# [day 11+]


def remind(history: list[dict], plan: TodoList, emit: Emit) -> None:
    """Add the plan reminder to the history: its bill first, then the message itself."""
    text = reminder_text(plan, REMIND_AFTER)
    open_items = sum(1 for item in plan.items if item.status != "done")
    emit(PlanReminded(open_items, len(plan.items), len(text), estimate_tokens(text)))
    add_message(history, {"role": "system", "content": text}, emit)
# [/day]
# [day 5+]


def refusal(call: ToolCall, approver: Approver,
            # [day 6+]
            guard: LoopGuard,
            # [/day]
            ) -> ToolResult | None:
    """Why this call must not run, as the result the model will read; None if it may run."""
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    # [day 6+]
    if guard.blocks(call):
        return ToolResult(False, f"blocked: {call.name} was already called {guard.max_repeats} times "
                                 "with these arguments in this turn; try something else",
                          blocked_by="loop_guard")
    # [/day]
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        # BEGIN SOLUTION day-05 E2
        return ToolResult(False, decision.reason, blocked_by="approval")  # a "no" is an answer
        # END SOLUTION day-05 E2
        # BEGIN SCAFFOLD day-05 E2
        # raise PermissionError(decision.reason)  # the user said no: stop here
        # END SCAFFOLD day-05 E2
    return None
# [/day]
# [day 6+]


def close_dangling_calls(history: list[dict], emit: Emit) -> None:
    """Give every unanswered tool call of the last assistant message a 'cancelled' result."""
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if message.get("role") == "assistant":
            answered = {m.get("tool_call_id") for m in history[index + 1:]}
            for call in message.get("tool_calls") or []:
                if call["id"] not in answered:
                    add_message(history, {"role": "tool", "tool_call_id": call["id"],
                                          "content": "error: cancelled by the user before it finished"}, emit)
            return
# [/day]
# [/day]
# [/day]
