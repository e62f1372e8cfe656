"""Is this message list a chat chain a real API would accept?

Real chat-completions APIs refuse a history in which a tool call has no answer,
or an answer has no call (a 400 such as "An assistant message with 'tool_calls'
must be followed by tool messages responding to each 'tool_call_id'"). An agent
that is cancelled mid-round, or that replays a torn log, produces exactly such a
history, and only learns about it from the provider. The grader checks the same
rules itself, so that a broken history fails a check with a message naming the
message at fault, instead of passing against a lenient fake.

`refused` goes further: the whole of what a provider refuses in a request (no API
key, an unknown parameter, `"tools": []`, `stream_options` without `stream`, ...),
with the status and error object it answers, for the fake model server.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

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


# --------------------------------------------------------------------------- what a provider refuses

# The top-level parameters of OpenAI's chat-completions API: any other key is refused
# with "Unrecognized request argument supplied" (a typo such as `stream_option` too).
KNOWN_PARAMETERS = frozenset({
    "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
    "max_completion_tokens", "max_tokens", "messages", "metadata", "modalities", "model", "n",
    "parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key", "reasoning_effort",
    "response_format", "safety_identifier", "seed", "service_tier", "stop", "store", "stream",
    "stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user",
    "verbosity", "web_search_options",
})

# The provider's own sentences (the body of its 400 or 401): protocol data, the same in every language.
NO_KEY = ("You didn't provide an API key. You need to provide your API key in an Authorization header "
          "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
EMPTY_ARRAY = "Invalid '{param}': empty array. Expected an array with minimum length 1, but got an empty array instead."
NOT_AN_ANSWER = ("Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
                 "with 'tool_calls'.")
ROLES_SUPPORTED = "Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'."


@dataclass(frozen=True)
class Refusal:
    """How a provider refuses one request: the status and error object it sends back, and what the
    agent sent, as a catalogue key and its values (`say(key, **values)` names it to the student)."""

    status: int
    message: str
    param: str | None
    code: str | None
    key: str
    values: dict = field(default_factory=dict)

    def error(self) -> dict:
        """The provider's error body: `{"error": {"message", "type", "param", "code"}}`."""
        return {"error": {"message": self.message, "type": "invalid_request_error",
                          "param": self.param, "code": self.code}}

    def what(self, lang: str | None = None) -> str:
        """What the agent sent, in one line of the catalogue (in `lang`, else the run's language)."""
        values = self.values
        if self.key == "chain.problem":  # the chain rules word their own line
            return valid_chain(values["messages"], lang=lang) or ""
        return Messages(KIT_MESSAGES, lang=lang)(self.key, **values)


def refused(body: dict, authorization: str | None, *, chain: bool = True) -> Refusal | None:
    """The refusal a real chat-completions API gives this request, or None when it accepts it.

    `body` is the parsed JSON object (with a `messages` list and a `model`: the server
    checks those first); `authorization` its `Authorization` header (None: none). The
    rules, in the order a provider applies them: an API key; only known top-level
    parameters; `stream_options` only with `"stream": true`; `tools` not an empty list;
    `messages` not empty; each message with a known role; an assistant's `tool_calls` not
    an empty list; a `tool` message answering a call of the assistant message before its
    run. With `chain`, the whole of `valid_chain` too (every call answered, ids unique).
    """
    if not authorization or not authorization.startswith("Bearer ") or not authorization[7:].strip():
        return Refusal(401, NO_KEY, None, None, "request.no_key" if not authorization else "request.not_bearer")
    unknown = sorted(key for key in body if key not in KNOWN_PARAMETERS)
    if unknown:
        return Refusal(400, f"Unrecognized request argument supplied: {unknown[0]}", None, None,
                       "request.unknown_parameter", {"name": repr(unknown[0])})
    if "stream_options" in body and body.get("stream") is not True:
        return Refusal(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                       "stream_options", None, "request.stream_options",
                       {"stream": json.dumps(body.get("stream", None))})
    if body.get("tools") == []:
        return Refusal(400, EMPTY_ARRAY.format(param="tools"), "tools", "empty_array", "request.empty_tools")
    messages = body["messages"]
    if not messages:
        return Refusal(400, EMPTY_ARRAY.format(param="messages"), "messages", "empty_array", "chain.empty")
    answerable: set[str] = set()  # the calls of the assistant message before the current run of tool messages
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            return Refusal(400, f"Invalid type for 'messages[{i}]': expected an object.", f"messages[{i}]",
                           "invalid_type", "chain.not_object", {"index": i})
        role = message.get("role")
        if role not in KNOWN_ROLES:
            return Refusal(400, f"Invalid value: {json.dumps(role)}. {ROLES_SUPPORTED}", f"messages[{i}].role",
                           "invalid_value", "chain.unknown_role",
                           {"index": i, "role": repr(role), "known": ", ".join(KNOWN_ROLES)})
        calls = message.get("tool_calls")
        if role == "assistant" and calls == []:
            return Refusal(400, EMPTY_ARRAY.format(param=f"messages[{i}].tool_calls"), f"messages[{i}].tool_calls",
                           "empty_array", "request.empty_calls", {"index": i})
        if role == "tool":
            if message.get("tool_call_id") not in answerable:
                return Refusal(400, NOT_AN_ANSWER, f"messages.[{i}].role", None, "request.not_an_answer",
                               {"index": i, "id": repr(message.get("tool_call_id"))})
            continue
        answerable = {c.get("id") for c in calls if isinstance(c, dict)} if isinstance(calls, list) else set()
    problem = valid_chain(messages, lang="en") if chain else None
    if problem:
        return Refusal(400, f"Invalid 'messages': {problem}", "messages", None, "chain.problem",
                       {"messages": messages})
    return None


# Every refusal of every server of this process since `forget_refusals()`: the engine forgets
# them when a check starts and, when the check fails, adds `refusal_note()` to its message
# (the checks of one process run one at a time), so a failure caused by a request a real
# provider refuses names what the agent sent, whichever check it is.
_refusals: list[Refusal] = []
_refusals_lock = threading.Lock()


def note_refusal(refusal: Refusal) -> None:
    with _refusals_lock:
        _refusals.append(refusal)


def forget_refusals() -> None:
    with _refusals_lock:
        _refusals.clear()


def refusal_note() -> str | None:
    """One sentence naming the first request refused since `forget_refusals()` (and how many), else None."""
    with _refusals_lock:
        seen = list(_refusals)
    if not seen:
        return None
    first, say = seen[0], Messages(KIT_MESSAGES)
    if len(seen) == 1:
        return say("server.refused_note", status=first.status, what=first.what())
    return say("server.refused_note_more", count=len(seen), status=first.status, what=first.what())
