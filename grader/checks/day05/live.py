"""Day 05: the lab's agent running for real against the grader's model, on a pipe or a terminal.

The grader's model (`Script`) is a function of the history it is sent, like the lab's
mock: for each user line it plays a list of rounds (tool calls, then a final text),
choosing the round by how many assistant messages follow that line. So what the
agent sends back after a call - the tool result, the denial and its reason - is seen
exactly as a provider would see it, and an invalid history is refused (enforce_chain).

On a terminal (`tty=True`) the agent's prompt `allow ...? [y]es / [n]o / [a]lways` is
counted as it appears, and answers are typed only once the prompt is there: the lab
must really read them from its terminal.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit import CheckFailed, provider, wait_until
from grader.checkkit.fakeserver import FakeModelServer, SSEStream, reply_stream
from grader.checkkit.messages import Messages

PROMPT_MARK = "[y]es"   # in every approval prompt the provided ask_on_terminal prints
WAIT = 15               # seconds to wait for something a running child must do
NOT_MOCK = {"MOCK": "0"}


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    args: dict

    @classmethod
    def new(cls, name: str, args: dict) -> "Call":
        return cls("call_" + secrets.token_hex(4), name, args)


@dataclass(frozen=True)
class Round:
    text: str
    calls: tuple[Call, ...] = ()


def reply(model: str, round: Round):
    stream = SSEStream(model).role()
    if round.text:
        third = max(1, len(round.text) // 3)
        stream.text(round.text[:third], round.text[third:])
    if round.calls:
        stream.tool_calls([(c.id, c.name, json.dumps(c.args, ensure_ascii=False)) for c in round.calls],
                          pieces=2, interleave=False)
    return reply_stream(stream.finish("tool_calls" if round.calls else "stop").usage(30, 8).done())


@dataclass
class Script:
    """For each user line, its rounds; any other line (or a round too many) gets a short answer."""

    turns: dict[str, list[Round]] = field(default_factory=dict)

    def __call__(self, request):
        messages = request.messages
        start = max((i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"),
                    default=-1)
        user = str(messages[start].get("content") or "") if start >= 0 else ""
        done = sum(1 for m in messages[start + 1:] if isinstance(m, dict) and m.get("role") == "assistant")
        rounds = self.turns.get(user, [])
        return reply(request.model or provider.model(), rounds[done] if done < len(rounds) else Round("Done."))


def server_for(script: Script) -> FakeModelServer:
    return FakeModelServer(model=script, enforce_chain=True)


def agent_env(server: FakeModelServer) -> dict[str, str]:
    return {**server.env(), **NOT_MOCK}


def tool_results(server: FakeModelServer) -> dict[str, str]:
    """Every tool message the agent sent back, by tool_call_id (the latest copy of each)."""
    found: dict[str, str] = {}
    for request in server.requests:
        for message in request.messages:
            if isinstance(message, dict) and message.get("role") == "tool":
                found[str(message.get("tool_call_id"))] = str(message.get("content"))
    return found


def chat_requests(server: FakeModelServer) -> list:
    return [r for r in server.requests if r.path.endswith("/chat/completions")]


# --------------------------------------------------------------------------- a terminal

def prompts(child) -> int:
    return child.stdout_so_far().count(PROMPT_MARK)


def prompt_lines(child) -> list[str]:
    """The text of each prompt shown so far (from its 'allow' to its mark)."""
    text = child.stdout_so_far().replace("\r", "")
    lines = []
    for piece in text.split(PROMPT_MARK)[:-1]:
        line = piece.rsplit("\n", 1)[-1].strip()
        lines.append(line)
    return lines


def wait_for_prompt(ctx, child, count: int) -> bool:
    """Wait until the terminal shows `count` prompts (True), or the child ends or the wait runs out."""
    wait_until(lambda: prompts(child) >= count or not child.running(), ctx.scaled(WAIT))
    return prompts(child) >= count


def wait_for_requests(ctx, child, server: FakeModelServer, count: int) -> bool:
    wait_until(lambda: len(chat_requests(server)) >= count or not child.running(), ctx.scaled(WAIT))
    return len(chat_requests(server)) >= count


def screen_tail(child, limit: int = 240) -> str:
    text = " | ".join(line.strip() for line in child.stdout_so_far().replace("\r", "").splitlines() if line.strip())
    return text[-limit:] or Messages.for_day(Path(__file__).parent)("brief.blank_terminal")


def finish(ctx, child, key: str):
    """Wait for the child to exit; a child still running after WAIT is stopped and the check fails."""
    wait_until(lambda: not child.running(), ctx.scaled(WAIT))
    if child.running():
        tail = screen_tail(child)
        child.kill()
        raise CheckFailed(ctx.say(key), seen=tail)
    return child.wait(5)


def planted(ws: Path, rng, stem: str) -> tuple[str, str]:
    """A new text file in the workspace with a random line; (relative path, the line)."""
    name = f"{stem}_{rng.randrange(16**6):06x}.txt"
    line = f"token {rng.randrange(16**8):08x} {rng.choice(('中文', 'ログ', '🧪', 'café'))}"
    (ws / name).write_text(f"first line\n{line}\nlast line\n", encoding="utf-8")
    return name, line
