"""Day 06: the grader's model server, scripted for errors, and what the agent showed.

Replies are built here as data (SSE streams for the agent's streaming client, error
statuses with provider-shaped bodies whose messages are drawn per run, CJK and emoji
included). What the agent did is read from three places: the requests the server
recorded (when each arrived, and the history each carried), the agent's stderr
(`error (WHERE): ...` lines and `  <- TOOL ok|failed|blocked by ...` lines) and its
stdout (the reply's text).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI, mixed_text
from grader.checkkit.fakeserver import (CHAT_PATH, RecordedRequest, SSEStream, error_body, reply_status,
                                        reply_stream)

ERROR = re.compile(r"^error \(([^)]*)\): (.*)$")
FINISHED = re.compile(r"^\s*<- (\S+) (ok|failed|blocked by .*?)(?: \(.*\))?\s*$")
TRANSIENT_4XX = (408, 409, 429)
SERVER_ERRORS = (500, 502, 503, 504, 520, 529)


def lines(text: str) -> list[str]:
    return text.split("\n")


def error_lines(stderr: str) -> list[tuple[str, str]]:
    """(where, message) of every `error (WHERE): MESSAGE` line the screen printed."""
    return [(m.group(1), m.group(2)) for m in map(ERROR.match, lines(stderr)) if m]


def finished_lines(stderr: str) -> list[tuple[str, str]]:
    """(tool, outcome) of every `  <- TOOL ok|failed|blocked by ...` line, in order."""
    return [(m.group(1), m.group(2)) for m in map(FINISHED.match, lines(stderr)) if m]


def model_name(ctx, name: str) -> str:
    return f"grader-{name}-{ctx.rng(name + '/model').randrange(10**6)}"


def call_id(rng) -> str:
    return f"call_{rng.getrandbits(48):012x}"


def words(rng, low: int = 3, high: int = 7) -> str:
    """A short line of mixed text without newlines (a user line, a reply)."""
    return " ".join(mixed_text(rng, (low, high)).split())


def file_name(rng, suffix: str) -> str:
    return f"{rng.choice(ASCII_WORDS)}_{rng.choice(CJK_WORDS)}_{rng.randrange(1000)}{suffix}"


def file_text(rng) -> str:
    return "\n".join(words(rng) for _ in range(rng.randint(2, 5))) + "\n"


def _pieces(rng, text: str) -> list[str]:
    cut = sorted(rng.sample(range(1, len(text)), min(2, len(text) - 1))) if len(text) > 2 else []
    bounds = [0, *cut, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:]) if text[a:b]]


def text_reply(rng, model: str, text: str):
    """A streamed plain answer: role, the text in a few pieces, stop, usage, [DONE]."""
    stream = SSEStream(model).role().text(*_pieces(rng, text)).finish().usage(rng.randrange(50, 900), 7).done()
    return reply_stream(stream)


def calls_reply(rng, model: str, text: str, calls: list[tuple[str, str, dict]]):
    """A streamed answer that asks for tools: `calls` are (id, name, args)."""
    stream = SSEStream(model).role().text(*_pieces(rng, text))
    stream.tool_calls([(cid, name, json.dumps(args, ensure_ascii=False)) for cid, name, args in calls],
                      pieces=2)
    return reply_stream(stream.finish("tool_calls").usage(rng.randrange(50, 900), 9).done())


def error_message(rng) -> str:
    """A provider's error sentence, different every run (CJK and emoji in it)."""
    return f"{rng.choice(('overloaded', 'rate limited', 'try later', 'refused', 'unavailable'))}: " \
           f"{rng.choice(CJK_WORDS)} {rng.choice(EMOJI)} {rng.randrange(10**6)}"


def error_reply(rng, status: int, headers: dict | None = None):
    """A status with a body as providers (or the proxies in front of them) send it."""
    message = error_message(rng)
    if status >= 500 and rng.random() < 0.3:  # a proxy's page, not JSON
        return reply_status(status, headers={"Content-Type": "text/html; charset=utf-8", **(headers or {})},
                            text=f"<html><body><h1>{status}</h1>{message}</body></html>")
    kind = "server_error" if status >= 500 else "rate_limit_error" if status == 429 else "invalid_request_error"
    return reply_status(status, error_body(message, kind), headers)


def chats(requests: list[RecordedRequest]) -> list[RecordedRequest]:
    return [r for r in requests if r.path == CHAT_PATH]


def asked_pauses(notes: Path, requests: list[RecordedRequest]) -> list[float]:
    """Seconds the agent asked to sleep between each request and the next (harnesses/clock.py's
    notes; both sides read the machine's one monotonic clock). Several sleeps in one gap add up."""
    noted = []
    try:
        for line in notes.read_text(encoding="utf-8").splitlines():
            note = json.loads(line)
            noted.append((float(note["at"]), float(note["seconds"])))
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no note (nothing slept) or a torn last one: the pauses that are there count
    return [sum(seconds for at, seconds in noted if a.arrived < at < b.arrived)
            for a, b in zip(requests, requests[1:])]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def tool_results(messages: list) -> dict[str, str]:
    """tool_call_id -> content, for every tool message of a request."""
    return {m.get("tool_call_id"): m.get("content") for m in messages
            if isinstance(m, dict) and m.get("role") == "tool"}


def described(name: str, args: dict) -> str:
    return f"{name}({json.dumps(args, ensure_ascii=False)})"
