"""Day 02: the lab's agent against the grader's fake model server, and what it showed.

A check sees three things. stdout: the reply's text as it streams, then one newline.
stderr: the `model:` line, one `  tokens: N in, M out` line per reply, one
`  (the model asked for NAME(ARGS); no tool can run yet)` line per tool call, and
`error (gateway): ...` when a request fails. And, at the server, every request: the
history a REPL sends with its next request holds the assistant message the agent
built from the previous reply, exactly as the agent understood it (whatever the
screen printed).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from grader.checkkit import CheckFailed, short
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest, SSEStream, reply_stream
from grader.spawn import ChildResult

from .streams import short_text

TOKENS = re.compile(r"^\s*tokens: (\d+) in, (\d+) out\s*$")
CALL = re.compile(r"^\s*\(the model asked for ([^(]*)\((.*)\); no tool can run yet\)\s*$")
ERROR = re.compile(r"^error \(([^)]*)\): (.*)$")
TURN_TIMEOUT = 30  # seconds for a whole REPL conversation with the fake server; it needs well under one


def lines(text: str) -> list[str]:
    """Lines split on "\\n" only: U+2028 in a reply is not a line break."""
    return text.split("\n")


def tokens_lines(stderr: str) -> list[tuple[int, int]]:
    return [(int(m.group(1)), int(m.group(2))) for m in map(TOKENS.match, lines(stderr)) if m]


def call_lines(stderr: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(CALL.match, lines(stderr)) if m]


def error_lines(stderr: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(ERROR.match, lines(stderr)) if m]


def status_kinds(stderr: str) -> list[str]:
    """The agent's own lines in order, by kind: tokens, call, error (others left out)."""
    kinds = []
    for line in lines(stderr):
        kind = "tokens" if TOKENS.match(line) else "call" if CALL.match(line) else "error" if ERROR.match(line) \
            else None
        if kind:
            kinds.append(kind)
    return kinds


def model_name(ctx, name: str) -> str:
    return f"grader-{name}-{ctx.rng(name + '/model').randrange(10**6)}"


def final_reply(model: str):
    """The reply to the last request of a conversation: short and plain."""
    return reply_stream(SSEStream(model).role().text("ok").finish().usage(3, 1).done())


@dataclass
class Conversation:
    """A REPL run: one user line per scripted reply, then one more, then /exit."""

    result: ChildResult
    requests: list[RecordedRequest]
    said: list[str] = field(default_factory=list)  # the user's lines, one per turn

    def reply_of(self, turn: int) -> tuple[str, object]:
        """("ok", the assistant message of `turn` as the next request carried it back), or
        ("no_request", None) / ("no_message", the message found after the user's line)."""
        if len(self.requests) <= turn + 1:
            return "no_request", None
        messages = self.requests[turn + 1].messages
        asked = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"
                 and m.get("content") == self.said[turn]]
        following = messages[asked[-1] + 1] if asked and asked[-1] + 1 < len(messages) else None
        if not isinstance(following, dict) or following.get("role") != "assistant":
            return "no_message", following
        return "ok", following

    def tool_results_of(self, turn: int) -> list[dict]:
        """The tool messages that follow the assistant message of `turn` in the next request."""
        messages = self.requests[turn + 1].messages
        asked = max(i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("content") == self.said[turn])
        results = []
        for message in messages[asked + 2:]:
            if not isinstance(message, dict) or message.get("role") != "tool":
                break
            results.append(message)
        return results


def converse(ctx, name: str, replies: list) -> Conversation:
    """The REPL against a fake server that plays `replies` in order (and a short last one)."""
    rng = ctx.rng(name + "/lines")
    model = model_name(ctx, name)
    said = [f"{short_text(rng)} {number}" for number in range(1, len(replies) + 2)]
    with FakeModelServer([*replies, final_reply(model)]) as server:
        result = ctx.run_agent(cwd=ctx.workspace(name), input="\n".join(said) + "\n/exit\n",
                               extra_env=server.env(model=model), mock=False, timeout=TURN_TIMEOUT)
        requests = server.requests
    return Conversation(result, requests, said)


def one_shots(ctx, name: str, replies: list) -> list[ChildResult]:
    """One `python -m mca PROMPT` per reply, all against one fake server (each child gets the next)."""
    rng = ctx.rng(name + "/prompts")
    model = model_name(ctx, name)
    results = []
    with FakeModelServer(replies) as server:
        for _ in replies:
            results.append(ctx.run_agent(short_text(rng), cwd=ctx.workspace(name), extra_env=server.env(model=model),
                                         mock=False))
    return results


def where_differs(say, expected: str, seen: str) -> str:
    """`at character N: expected '...', seen '...'` for two texts (quoted with repr)."""
    at = next((i for i, (a, b) in enumerate(zip(expected, seen)) if a != b), min(len(expected), len(seen)))
    return say("brief.differs", at=at, expected=repr(expected[at:at + 12]), seen=repr(seen[at:at + 12]))


def expect_texts(ctx, conversation: Conversation, turns: list[tuple[str, str]], key: str, *,
                 whole: bool = True) -> None:
    """Each turn's assistant message (as the next request carried it) holds exactly its text;
    `whole`: these are all the turns, and the last request holds each reply once."""
    say = ctx.say
    result = conversation.result
    if result.returncode != 0:
        raise CheckFailed(say("wire.repl_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    errors = error_lines(result.stderr)
    for turn, (what, text) in enumerate(turns):
        state, message = conversation.reply_of(turn)
        if state != "ok":
            problem = (say("brief.reported", where=errors[0][0], error=errors[0][1]) if errors
                       else say("wire.no_request") if state == "no_request"
                       else say("wire.no_message", seen=short(json.dumps(message, ensure_ascii=False), 200)))
            raise CheckFailed(say(f"{key}.not_read", what=what, problem=problem), seen=ctx.evidence(result))
        content = message.get("content")
        if content != text:
            seen = content if isinstance(content, str) else repr(content)
            raise CheckFailed(say(f"{key}.text_wrong", what=what, where=where_differs(say, text, seen)),
                              expected=repr(text), seen=repr(seen))
    if whole:
        history_problem(ctx, conversation, [text for _, text in turns])


def history_problem(ctx, conversation: Conversation, texts: list[str]) -> None:
    """The last request holds the system prompt, then each user line and one assistant
    message with its text, in order, then the last user line: nothing twice, nothing lost."""
    messages = conversation.requests[-1].messages if conversation.requests else []
    said = conversation.said
    wanted = [pair for k, text in enumerate(texts) for pair in (("user", said[k]), ("assistant", text))]
    wanted.append(("user", said[len(texts)]))
    seen = [(m.get("role"), m.get("content")) for m in messages[1:] if isinstance(m, dict)]
    if seen != wanted:
        shape = ", ".join(role or "?" for role, _ in seen)
        raise CheckFailed(ctx.say("wire.history_wrong", count=len(texts), shape=shape),
                          expected=", ".join(role for role, _ in wanted), seen=shape)
