"""Day 01: running the lab's code - the agent with the mock, the agent against the grader's
fake model server, and the two harnesses (a conversation at the gateway seam, and
build_request's requests sent to the fake server).
"""

from __future__ import annotations

import re
import socket
from contextlib import contextmanager

from grader.checkkit import CheckFailed, ChildResult
from grader.checkkit.fakeserver import FakeModelServer

CHAT_PATH = "/v1/chat/completions"
BANNER = "model:"   # the start line (mca/gateway/__init__.py `describe`), on stderr


# --------------------------------------------------------------------------- harnesses

def chat_turns(ctx, users: list[str], replies: list[str], label: str) -> list[list[dict]]:
    """The message list each turn handed to the gateway, for a conversation of len(users) turns."""
    answer = ctx.harness_json("chat_turns", {"users": users, "replies": replies}, calls="Chat.ask", label=label,
                              on=lambda found: ctx.say("what.turn", number=found.get("turns_done", 0) + 1))
    requests = answer.get("requests") or []
    if len(requests) != len(users):
        raise CheckFailed(ctx.say("history.calls", turns=len(users), calls=len(requests)))
    return [[m if isinstance(m, dict) else {"role": None, "content": repr(m)} for m in r] for r in requests]


# --------------------------------------------------------------------------- the agent on the wire

# The kit passes the grader's own environment on, MOCK included: a person who exported
# MOCK=1 for the walk-through would otherwise see every check of the wire fail.
NOT_MOCK = {"MOCK": "0"}


def wire_env(server: FakeModelServer, key: str, model: str) -> dict[str, str]:
    """The environment that points the agent at the fake server (and not at the mock)."""
    return {**server.env(api_key=key, model=model), **NOT_MOCK}


def one_shot(ctx, prompt: str, env: dict[str, str], label: str) -> ChildResult:
    """`python -m mca PROMPT` with the real gateway (no MOCK), in a fresh workspace."""
    return ctx.run_agent(prompt, cwd=ctx.workspace(label), extra_env=env, mock=False)


def expect_chat_request(ctx, server: FakeModelServer, result: ChildResult) -> None:
    """The agent's request must have reached the server as a chat completion before its answer
    can be judged; if it did not, say where it went (build_request's part, request-shape)."""
    requests = server.requests
    for r in requests:
        if r.method == "POST" and r.path == CHAT_PATH:
            if isinstance(r.json, dict) and isinstance(r.json.get("messages"), list) and r.model:
                return
            raise CheckFailed(ctx.say("wire.bad_body"), seen=ctx.evidence(result))
    if requests:
        raise CheckFailed(ctx.say("wire.wrong_place", method=requests[-1].method, path=requests[-1].path),
                          seen=ctx.evidence(result))
    raise CheckFailed(ctx.say("wire.no_request"), seen=ctx.evidence(result))


@contextmanager
def closed_port():
    """A loopback port nothing listens on. It stays bound (never listening) while in use,
    so no other server of the run can take it: a connection there is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


# --------------------------------------------------------------------------- what a child printed

def said_lines(result: ChildResult) -> list[str]:
    """The non-empty lines a child printed on either stream, without the start line."""
    lines = [line.strip() for line in (result.stdout + "\n" + result.stderr).split("\n")]
    return [line for line in lines if line and not line.startswith(BANNER)]


def shown_lines(result: ChildResult) -> list[str]:
    """Like said_lines, but cut at every line break a terminal makes: a "\\r" left in a line
    sends the cursor back and the rest of the line overwrites its start."""
    lines = [line.strip() for line in re.split(r"\r\n|\r|\n", result.stdout + "\n" + result.stderr)]
    return [line for line in lines if line and not line.startswith(BANNER)]


def banners(result: ChildResult) -> list[str]:
    return [line.strip() for line in result.stderr.split("\n") if line.strip().startswith(BANNER)]


def has_traceback(result: ChildResult) -> bool:
    return "Traceback (most recent call last)" in result.stderr + result.stdout


def stub_that_raised(result: ChildResult) -> str | None:
    """The function whose TODO stub ended the child, from its traceback: the innermost frame
    of a traceback that ends in NotImplementedError (None for any other ending)."""
    lines = [line for line in result.stderr.split("\n") if line.strip()]
    if not lines or not lines[-1].startswith("NotImplementedError"):
        return None
    frames = re.findall(r'^\s*File "[^"]*", line \d+, in (\S+)\s*$', result.stderr, re.MULTILINE)
    return frames[-1] if frames else None


def squeezed(text: str) -> str:
    return " ".join(str(text).split())
