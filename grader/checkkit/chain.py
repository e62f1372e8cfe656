"""Is this message list a chat chain a real API would accept?

Real chat-completions APIs refuse a history in which a tool call has no answer,
or an answer has no call (a 400 such as "An assistant message with 'tool_calls'
must be followed by tool messages responding to each 'tool_call_id'"). An agent
that is cancelled mid-round, or that replays a torn log, produces exactly such a
history, and only learns about it from the provider. The grader checks the same
rules itself, so that a broken history fails a check with a message naming the
message at fault, instead of passing against a lenient fake.
"""

from __future__ import annotations

KNOWN_ROLES = ("system", "developer", "user", "assistant", "tool")


def valid_chain(messages: object) -> str | None:
    """None when `messages` is a valid chain, else one line naming the first problem.

    The rules: every message is an object with a known role; an assistant's
    `tool_calls` each have an id unique in the whole chain; every `tool` message
    answers, by `tool_call_id`, a call of the assistant message right before the
    run of tool messages it belongs to, once; and every call is answered before
    the next message that is not a tool result (or the end of the list).
    """
    if not isinstance(messages, list) or not messages:
        return "messages must be a non-empty array"
    seen_ids: set[str] = set()
    pending: dict[str, int] = {}  # call id -> index of the assistant message that made it
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            return f"messages[{i}] is not an object"
        role = message.get("role")
        if role not in KNOWN_ROLES:
            return f"messages[{i}] has an unknown role {role!r} (known: {', '.join(KNOWN_ROLES)})"
        if role == "tool":
            problem = _answer(i, message, pending)
            if problem:
                return problem
            continue
        if pending:
            return _unanswered(pending, before=f"messages[{i}] ({role})")
        if role == "assistant":
            problem = _calls(i, message, seen_ids, pending)
            if problem:
                return problem
    if pending:
        return _unanswered(pending, before="the end of the messages")
    return None


def _answer(i: int, message: dict, pending: dict[str, int]) -> str | None:
    """A tool message must close one of the calls still open."""
    call_id = message.get("tool_call_id")
    if not isinstance(call_id, str) or not call_id:
        return f"messages[{i}] has role 'tool' but no tool_call_id"
    if call_id not in pending:
        return (f"messages[{i}] with role 'tool' answers tool_call_id {call_id!r}, which is not a call "
                "of the assistant message before it (or was answered already)")
    del pending[call_id]
    return None


def _calls(i: int, message: dict, seen_ids: set[str], pending: dict[str, int]) -> str | None:
    """An assistant's tool calls open one pending answer each; their ids are unique."""
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list):
        return f"messages[{i}].tool_calls is not an array"
    for j, call in enumerate(calls):
        call_id = call.get("id") if isinstance(call, dict) else None
        if not isinstance(call_id, str) or not call_id:
            return f"messages[{i}].tool_calls[{j}] has no id"
        function = call.get("function")
        if not isinstance(function, dict) or not function.get("name"):
            return f"messages[{i}].tool_calls[{j}] has no function name"
        if call_id in seen_ids:
            return f"messages[{i}].tool_calls[{j}] reuses the tool_call id {call_id!r}"
        seen_ids.add(call_id)
        pending[call_id] = i
    return None


def _unanswered(pending: dict[str, int], before: str) -> str:
    call_id, at = next(iter(pending.items()))
    more = f" (and {len(pending) - 1} more)" if len(pending) > 1 else ""
    return (f"the tool call {call_id!r} of messages[{at}] has no tool message answering it "
            f"before {before}{more}")
