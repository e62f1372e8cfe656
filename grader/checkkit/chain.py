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

from grader.checkkit.messages import KIT_MESSAGES, Messages

KNOWN_ROLES = ("system", "developer", "user", "assistant", "tool")


def valid_chain(messages: object, lang: str | None = None) -> str | None:
    """None when `messages` is a valid chain, else one line naming the first problem (in
    `lang`, else the run's language: the fake server answers the lab in English, as an API does).

    The rules: every message is an object with a known role; an assistant's
    `tool_calls` each have an id unique in the whole chain; every `tool` message
    answers, by `tool_call_id`, a call of the assistant message right before the
    run of tool messages it belongs to, once; and every call is answered before
    the next message that is not a tool result (or the end of the list).
    """
    say = Messages(KIT_MESSAGES, lang=lang)
    if not isinstance(messages, list) or not messages:
        return say("chain.empty")
    seen_ids: set[str] = set()
    pending: dict[str, int] = {}  # call id -> index of the assistant message that made it
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            return say("chain.not_object", index=i)
        role = message.get("role")
        if role not in KNOWN_ROLES:
            return say("chain.unknown_role", index=i, role=repr(role), known=", ".join(KNOWN_ROLES))
        if role == "tool":
            problem = _answer(say, i, message, pending)
            if problem:
                return problem
            continue
        if pending:
            return _unanswered(say, pending, before=f"messages[{i}] ({role})")
        if role == "assistant":
            problem = _calls(say, i, message, seen_ids, pending)
            if problem:
                return problem
    if pending:
        return _unanswered(say, pending, before=say("chain.the_end"))
    return None


def _answer(say, i: int, message: dict, pending: dict[str, int]) -> str | None:
    """A tool message must close one of the calls still open."""
    call_id = message.get("tool_call_id")
    if not isinstance(call_id, str) or not call_id:
        return say("chain.no_call_id", index=i)
    if call_id not in pending:
        return say("chain.not_a_call", index=i, id=repr(call_id))
    del pending[call_id]
    return None


def _calls(say, i: int, message: dict, seen_ids: set[str], pending: dict[str, int]) -> str | None:
    """An assistant's tool calls open one pending answer each; their ids are unique."""
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list):
        return say("chain.calls_not_array", index=i)
    for j, call in enumerate(calls):
        call_id = call.get("id") if isinstance(call, dict) else None
        if not isinstance(call_id, str) or not call_id:
            return say("chain.call_no_id", index=i, call=j)
        function = call.get("function")
        if not isinstance(function, dict) or not function.get("name"):
            return say("chain.call_no_name", index=i, call=j)
        if call_id in seen_ids:
            return say("chain.id_reused", index=i, call=j, id=repr(call_id))
        seen_ids.add(call_id)
        pending[call_id] = i
    return None


def _unanswered(say, pending: dict[str, int], before: str) -> str:
    call_id, at = next(iter(pending.items()))
    if len(pending) > 1:
        return say("chain.unanswered_more", id=repr(call_id), index=at, before=before, more=len(pending) - 1)
    return say("chain.unanswered", id=repr(call_id), index=at, before=before)
