"""Day 12: a scripted model for long sessions, the sessions the checks drive, and the
sheet's measures (the size of a message list, the rounds of a history).

The fake model plays a conversation the check wrote: each prompt has a plan (model rounds
of read_file calls on files the check put in the workspace, then a final text). A request
that does not continue one of those prompts (its last message is neither one of them nor a
tool result) is a summary request, answered with the next summary of the check's list.
Every request is recorded, so a check sees what was sent to be summarised, and what the
next turn sent after it.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit import CheckFailed, short
from grader.checkkit.draws import mixed_text, plain_text, script_text
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest
from grader.checkkit.replies import reply_stream
from grader.checkkit.sse import SSEStream
from grader.checkkit.turns import Turn, estimate, marker, run_turn, token  # noqa: F401 - the checks import them from here

VOICES = (plain_text, script_text, mixed_text)
NEVER = str(10 ** 9)  # a threshold no session of a check reaches: only /compact compacts
SESSION_TIMEOUT = 90  # seconds for one REPL session of a dozen turns with the fake model


def one_line(text: str) -> str:
    """A prompt as typed on one line: the REPL strips it and reads up to the newline."""
    return " ".join(text.split())


@dataclass
class Plan:
    """What the model does with one prompt: rounds of calls (name, args), then its answer."""

    prompt: str
    rounds: list[list[tuple[str, dict]]]
    answer: str
    tag: str  # the marker of this round: in its prompt, its answer, its files


@dataclass
class Script:
    """The conversation the fake model plays, and the summaries it writes when asked."""

    plans: list[Plan] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    asked: list[RecordedRequest] = field(default_factory=list)  # the summary requests, in order
    served: list[str] = field(default_factory=list)  # the summaries given, in order
    lock: threading.Lock = field(default_factory=threading.Lock)

    def plan_for(self, text: str) -> Plan | None:
        return next((p for p in self.plans if p.prompt == text), None)

    def model(self, request: RecordedRequest):
        messages = [m for m in request.messages if isinstance(m, dict)]
        last = messages[-1] if messages else {}
        users = [i for i, m in enumerate(messages) if m.get("role") == "user" and self.plan_for(text_of(m))]
        turn = last.get("role") == "tool" or (last.get("role") == "user" and self.plan_for(text_of(last)))
        if not turn or not users:
            with self.lock:
                self.asked.append(request)
                summary = self.summaries.pop(0) if self.summaries else "(no more summaries)"
                self.served.append(summary)
            return text_reply(summary)
        plan = self.plan_for(text_of(messages[users[-1]]))
        step = sum(1 for m in messages[users[-1] + 1:] if m.get("role") == "assistant")
        if step < len(plan.rounds):
            calls = [(f"call_{plan.tag}_{step}_{n}", name, json.dumps(args, ensure_ascii=False))
                     for n, (name, args) in enumerate(plan.rounds[step])]
            stream = SSEStream().role().text(f"Looking ({plan.tag}). ").tool_calls(calls, pieces=2)
            return reply_stream(stream.finish("tool_calls").usage(100, 20).done())
        return text_reply(plan.answer)


def text_reply(text: str):
    return reply_stream(SSEStream().role().text(text).finish().usage(100, 5).done())


def text_of(message: dict) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


# --------------------------------------------------------------------------- the sheet's measures

def wire_text(message: dict) -> str:
    """A message's text as the sheet counts it, from its wire form: its content, then each
    call's name and arguments (the checks that count exactly send no calls)."""
    text = text_of(message)
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        text += str(function.get("name", "")) + str(function.get("arguments", ""))
    return text


def size(messages: list[dict]) -> int:
    """The sheet's size of a message list: day 8's estimate of each message's text, added up."""
    return sum(estimate(wire_text(m)) for m in messages)


def leading_system(messages: list[dict]) -> list[dict]:
    out = []
    for m in messages:
        if not isinstance(m, dict) or m.get("role") != "system":
            break
        out.append(m)
    return out


# --------------------------------------------------------------------------- drawing a session

def words(rng, k: int, span: tuple[int, int]) -> str:
    return one_line(VOICES[k % 3](rng, span))


def plain_plans(rng, n: int, span: tuple[int, int] = (30, 60), voice: int | None = None) -> list[Plan]:
    """`n` rounds without tools: a prompt and an answer, each with a marker, in the three voices
    (`voice`: all in one of them, 0 plain English, 1 one other script, 2 mixed)."""
    plans = []
    for k in range(n):
        tag = marker(rng, "r")
        a, b = (k, k + 1) if voice is None else (voice, voice)
        plans.append(Plan(f"{tag} {words(rng, a, (4, 12))} {tag}q", [], f"{tag}a {words(rng, b, span)} {tag}z", tag))
    return plans


def tool_plans(rng, n: int, workspace: Path, span: tuple[int, int] = (10, 30)) -> list[Plan]:
    """`n` rounds that read files the check writes (one to three model rounds of one to three
    calls each), each file holding a marker of its own and `span` words."""
    plans = []
    for k in range(n):
        tag = marker(rng, "t")
        rounds = []
        for r in range(rng.randint(1, 3)):
            calls = []
            for c in range(rng.randint(1, 3)):
                name = f"notes/{tag}_{r}_{c}.txt"
                path = workspace / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(f"{tag}f{r}{c} {words(rng, k + c, span)} {tag}e{r}{c}\n", encoding="utf-8")
                calls.append(("read_file", {"path": name}))
            rounds.append(calls)
        plans.append(Plan(f"{tag} {words(rng, k, (4, 12))} {tag}q", rounds, f"{tag}a {words(rng, k + 2, (20, 40))} {tag}z",
                          tag))
    return plans


def summary_text(rng) -> str:
    return f"{marker(rng, 's')} {words(rng, rng.randint(0, 2), (8, 16))}"


def memory_records(rng, path: Path, n: int = 2) -> list[str]:
    """`n` memories in day 10's file format, in the user's memory file; their texts."""
    texts, lines = [], []
    at = 1_700_000_000.0 + rng.randint(0, 10_000_000)
    for k in range(n):
        text = f"{marker(rng, 'mem')} {words(rng, k, (3, 8))}"
        at += rng.randint(1, 5000)
        lines.append(json.dumps({"op": "add", "id": f"m-{token(rng, 8)}", "key": " ".join(text.split()).casefold(),
                                 "text": text, "at": at}, ensure_ascii=False))
        texts.append(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return texts


@dataclass
class Session:
    """One REPL process fed the script's prompts and commands, and what it left."""

    turn: Turn
    script: Script

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.turn.requests

    def events(self) -> list[dict]:
        return self.turn.log_events()

    def turn_request(self, prompt: str) -> RecordedRequest | None:
        """The first request that carries `prompt` as its last message."""
        for r in self.requests:
            messages = r.messages
            if messages and isinstance(messages[-1], dict) and messages[-1].get("role") == "user" \
                    and text_of(messages[-1]) == prompt:
                return r
        return None

    def index_of(self, request: RecordedRequest) -> int:
        return next(i for i, r in enumerate(self.requests) if r is request)


def run_session(ctx, name: str, script: Script, lines: list[str], *, workspace: Path | None = None,
                sessions: Path | None = None, env: dict | None = None, server: FakeModelServer | None = None,
                resume: bool = False, prompt: str | None = None, tty: bool = False) -> Session:
    """The REPL fed `lines` (prompts and commands, then /exit), or one `prompt`, against the script's
    model (`tty`: on a pseudo-terminal of its own, each line typed at its prompt)."""
    own = server is None
    server = server or FakeModelServer(model=script.model)
    if own:
        server.start()
    try:
        typed = None if prompt is not None else "".join(line + "\n" for line in lines + ["/exit"])
        turn = run_turn(ctx, name, prompt, workspace=workspace, sessions=sessions, resume=resume, server=server,
                        typed=typed, env={"MCA_COMPACT_AT": NEVER, **(env or {})}, timeout=SESSION_TIMEOUT,
                        tty=tty)
    finally:
        if own:
            server.close()
    ctx.expect_ok(turn.result)
    return Session(turn, script)


def need(ctx, found, key: str, session: Session, **values):
    """`found`, or the check fails with `key` and what the agent said."""
    if found is None:
        raise CheckFailed(ctx.say(key, **values), seen=short(session.turn.said or ctx.evidence(session.turn.result), 400))
    return found


def shown(value, limit: int = 300) -> str:
    return short(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False), limit)
