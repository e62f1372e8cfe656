"""Day 03: the lab's agent against the grader's fake model server, and what it sent back.

The server plays tool calls generated for this run and records every request, so a
check reads the history the agent sent after each round message by message, in the
provider's shape: an assistant message with `tool_calls` (`id`, `function.name`,
`function.arguments` as a JSON string), then one `tool` message per call with its
`tool_call_id`. The server refuses a broken chain with a 400, as a real API does.
"""

from __future__ import annotations

import json
import random
import re

from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest, SSEStream, reply_stream

from .inputs import token, words

ERROR = re.compile(r"^error \(([^)]*)\): (.*)$")
TURN_TIMEOUT = 30


def model_name(rng: random.Random) -> str:
    return f"grader-day03-{token(rng, 6)}"


def call_id(rng: random.Random) -> str:
    """Ids as providers make them, of random shape, so that sorting them is no order at all."""
    return rng.choice(["call_", "toolu_", "fc-", ""]) + token(rng, rng.randint(8, 20))


def calls_reply(rng: random.Random, model: str, calls: list[tuple[str, str, dict]]):
    """A streamed reply: a little text, then `calls` (id, name, args), their arguments in fragments
    (args given as a string are sent as they are: a model's broken JSON)."""
    stream = SSEStream(model).role().text(words(rng, (2, 5)) + " ")
    stream.tool_calls([(i, n, a if isinstance(a, str) else json.dumps(a, ensure_ascii=False)) for i, n, a in calls],
                      pieces=rng.randint(1, 3))
    return reply_stream(stream.finish("tool_calls").usage(rng.randint(50, 900), rng.randint(5, 90)).done())


def text_reply(rng: random.Random, model: str, text: str):
    stream = SSEStream(model).role().text(text).finish().usage(rng.randint(50, 900), rng.randint(5, 90)).done()
    return reply_stream(stream)


def error_lines(stderr: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(ERROR.match, stderr.split("\n")) if m]


def provider_calls(message: object) -> list[tuple[object, object, object]]:
    """(id, name, arguments parsed) of an assistant message as the agent sent it."""
    if not isinstance(message, dict):
        return []
    found = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        function = function if isinstance(function, dict) else {}
        try:
            args = json.loads(function.get("arguments") or "null")
        except (TypeError, ValueError):
            args = function.get("arguments")
        found.append((call.get("id") if isinstance(call, dict) else None, function.get("name"), args))
    return found


def shape(messages: list, say) -> str:
    """`system, user, assistant(2 calls), tool, tool`: a history at a glance (`say`: the day's messages)."""
    parts = []
    for m in messages:
        if not isinstance(m, dict):
            parts.append("?")
            continue
        role = str(m.get("role"))
        calls = m.get("tool_calls") or []
        parts.append(say("brief.role_calls_one" if len(calls) == 1 else "brief.role_calls", role=role,
                         count=len(calls)) if calls else role)
    return ", ".join(parts) or say("brief.no_messages")


def serve(ctx, workspace, server: FakeModelServer, model: str, *, prompt: str | None = None,
          lines: list[str] | None = None):
    """The agent in `workspace` against `server`: one turn for `prompt`, else a REPL fed `lines`.
    (result, the chat requests in arrival order, the server's problems)."""
    with server:
        args = (prompt,) if prompt is not None else ()
        text = None if lines is None else "".join(line + "\n" for line in lines)
        result = ctx.run_agent(*args, cwd=workspace, input=text, extra_env=server.env(model=model), mock=False,
                               timeout=TURN_TIMEOUT)
        return result, [r for r in server.requests if r.path.endswith("/chat/completions")], server.problems


def last_user(request: RecordedRequest) -> object:
    users = [m.get("content") for m in request.messages if isinstance(m, dict) and m.get("role") == "user"]
    return users[-1] if users else None
