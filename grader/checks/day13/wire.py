"""Day 13: the fake model a parent agent and its subagents talk to, and what the checks read.

The parent and every subagent talk to one model (a subagent uses its parent's), so one
server answers them all and tells them apart by the conversation: a request whose last user
message holds the prompt of one of the run's side tasks is that subagent's; one whose last user
message is one of the parent's prompts is the parent's. The parent's model plays a `Turn`
(rounds of its own tool calls, then one reply of task calls, then its answer); each
subagent's model plays its `Task` (rounds of calls, then its answer, or a new call every
round for one that never answers). Every request is kept with the turn or task it belongs
to, so a check sees what each side was sent.

Everything the parent's side says is generated for the run with a mark of its own (its
prompts, its replies, the files it reads): a mark in any request of a subagent is the
parent's conversation leaking into the side task.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit import CheckFailed, short
from grader.checkkit.draws import voiced
from grader.checkkit.fakeserver import FakeModelServer, Gate, RecordedRequest
from grader.checkkit.replies import error_body, reply_status, reply_stream, streamed_calls, streamed_text
from grader.checkkit.sessionlog import read_lines
from grader.checkkit.sse import SSEStream
from grader.checkkit.turns import Turn as Run, estimate, marker, run_turn, text_of  # noqa: F401 - the checks import them from here

ANSWER_CAP = 2000          # the sheet's cap on the answer the parent reads
READ_ONLY = ("read_file", "list_dir", "grep")   # day 3's read-only tools
WRITERS = ("write_file", "edit_file", "run_command", "remember")  # days 4 and 10: the tools that change something
PARENT_ONLY = ("task", "todo")  # never a subagent's: no subagent of its own, no hand in the parent's plan
TASK = "task"
SESSION_TIMEOUT = 60       # seconds for one run of the agent with a few subagents


def say(rng, k: int, span: tuple[int, int] = (3, 9)) -> str:
    return voiced(rng, k, span)


def message_text(message: dict) -> str:
    return text_of(message.get("content")) if isinstance(message, dict) else ""


@dataclass
class Task:
    """A side task the parent's model hands out, and how the subagent's model plays it."""

    description: str
    prompt: str
    tag: str
    rounds: list[list[tuple[str, dict]]] = field(default_factory=list)  # calls before its answer
    answer: str | None = None     # None: it never answers, a new call every round
    usage: list[tuple[int, int]] = field(default_factory=list)  # (prompt, completion) reported per request
    gate_at: int | None = None    # the request whose reply is held at `gate` (Ctrl-C)
    gate: Gate | None = None
    fail_at: int | None = None    # the request answered with an HTTP 400 (a failed request)
    call_id: str = ""             # the parent's call that hands it out
    requests: list[RecordedRequest] = field(default_factory=list)

    def reply(self, step: int):
        usage = self.usage[step] if step < len(self.usage) else (12, 4)
        if step == self.fail_at:
            return reply_status(400, error_body(f"invalid request ({self.tag}): the messages do not fit this model"))
        if self.gate is not None and step == self.gate_at:
            stream = SSEStream().role().text(f"Still looking ({self.tag}) ").gate(self.gate)
            return reply_stream(stream.text("...").finish().usage(*usage).done())
        if step < len(self.rounds):
            calls = [(f"call_{self.tag}_{step}_{n}", name, args) for n, (name, args) in enumerate(self.rounds[step])]
            return streamed_calls(f"Looking ({self.tag}).", calls, usage)
        if self.answer is None:  # a model that never stops asking: a different search each round
            call = (f"call_{self.tag}_{step}_0", "grep", {"pattern": f"{self.tag}x{step}", "path": "."})
            return streamed_calls(f"Looking again ({self.tag}).", [call], usage)
        return streamed_text(self.answer, usage)


@dataclass
class Turn:
    """One prompt of the parent's: its own rounds of calls, then its task calls in one reply, then its answer."""

    prompt: str
    tag: str
    answer: str
    before: list[list[tuple[str, dict]]] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    def reply(self, step: int):
        if step < len(self.before):
            calls = [(f"call_{self.tag}_{step}_{n}", name, args) for n, (name, args) in enumerate(self.before[step])]
            return streamed_calls(f"First ({self.tag}).", calls, (120, 20))
        if step == len(self.before) and self.tasks:
            calls = [(t.call_id, TASK, {"description": t.description, "prompt": t.prompt}) for t in self.tasks]
            return streamed_calls(f"Handing it on ({self.tag}).", calls, (150, 40))
        return streamed_text(self.answer, (200, 10))


class Script:
    """The model of a run: the parent's turns, and the tasks (those a subagent tries to hand on too)."""

    def __init__(self, turns: list[Turn], more: list[Task] = ()) -> None:
        self.turns = turns
        self.tasks = [t for turn in turns for t in turn.tasks] + list(more)
        self.unexpected: list[RecordedRequest] = []
        self.lock = threading.Lock()

    def model(self, request: RecordedRequest):
        messages = [m for m in request.messages if isinstance(m, dict)]
        users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        said = message_text(messages[users[-1]]) if users else None
        step = sum(1 for m in messages[users[-1] + 1:] if m.get("role") == "assistant") if users else 0
        with self.lock:
            for task in self.tasks:  # the prompt in a subagent's user message, alone or with words of its own
                if said is not None and task.prompt in said:
                    task.requests.append(request)
                    return task.reply(step)
            for turn in self.turns:
                if said == turn.prompt:
                    turn.requests.append(request)
                    return turn.reply(step)
            self.unexpected.append(request)
        return streamed_text("(I was not asked anything I know.)")


# --------------------------------------------------------------------------- drawing

def draw_task(rng, k: int, ws: Path | None = None, reads: int = 0, answer_words: tuple[int, int] = (8, 30)) -> Task:
    """A side task in voice k: `reads` rounds of one read_file each (files of its own, written
    into `ws`), then an answer with its mark."""
    tag = marker(rng, "t")
    task = Task(description=f"{tag} {say(rng, k, (2, 4))}", prompt=f"{tag}q {say(rng, k + 1, (6, 16))} {tag}z",
                tag=tag, answer=f"{tag}a {say(rng, k + 2, answer_words)} {tag}e", call_id=f"call_{marker(rng, 'c')}")
    for r in range(reads):
        name = f"{tag}_{r}.txt"
        if ws is not None:
            (ws / name).write_text(f"{tag}f{r} {say(rng, k + r, (6, 20))} {tag}g{r}\n", encoding="utf-8")
        task.rounds.append([("read_file", {"path": name})])
    return task


def draw_turn(rng, k: int, ws: Path, reads: int = 1, tasks: list[Task] = ()) -> Turn:
    """A prompt of the parent's in voice k, `reads` rounds of its own reading files (marked) first."""
    tag = marker(rng, "p")
    turn = Turn(prompt=f"{tag}q {say(rng, k, (4, 14))} {tag}z", tag=tag,
                answer=f"{tag}a {say(rng, k + 1, (6, 20))} {tag}e", tasks=list(tasks))
    for r in range(reads):
        calls = []
        for c in range(rng.randint(1, 2)):
            name = f"{tag}_{r}_{c}.txt"
            (ws / name).write_text(f"{tag}f{r}{c} {say(rng, k + c, (6, 24))} {tag}g{r}{c}\n", encoding="utf-8")
            calls.append(("read_file", {"path": name}))
        turn.before.append(calls)
    return turn


def long_text(rng, k: int, tag: str, chars: int) -> str:
    """An answer of exactly `chars` characters in voice k, starting and ending with its mark."""
    body = f"{tag}a "
    while len(body) < chars + 40:
        body += say(rng, k, (8, 20)) + ("\n" if rng.random() < 0.2 else " ")
        k += 0 if rng.random() < 0.7 else 1
    end = f" {tag}e"
    return body[:chars - len(end)] + end


# --------------------------------------------------------------------------- running and reading

def run(ctx, name: str, script: Script, prompt: str | None, *, ws: Path, sessions: Path | None = None,
        env: dict | None = None, options: tuple[str, ...] = (), tty: bool = False, typed: str | None = None,
        server: FakeModelServer | None = None, resume: bool = False, answer=None, question: str | None = None) -> Run:
    """The agent once (a prompt; or the REPL fed `typed`; on a terminal, `answer` typed at each
    `question`) against the script's model."""
    own = server is None
    server = server or FakeModelServer(model=script.model)
    if own:
        server.start()
    try:
        return run_turn(ctx, name, prompt, workspace=ws, sessions=sessions, server=server, tty=tty, typed=typed,
                        env=env, options=options, resume=resume, timeout=SESSION_TIMEOUT, answer=answer,
                        question=question)
    finally:
        if own:
            server.close()


def offered(request: RecordedRequest) -> list[str]:
    """The names of the tools a request offers."""
    tools = request.json.get("tools") if isinstance(request.json, dict) else None
    names = []
    for tool in tools or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        names.append(str((function or tool).get("name")) if isinstance(function or tool, dict) else "?")
    return names


def results(request: RecordedRequest) -> dict[str, str]:
    """call id -> the content of its tool result, in a request."""
    return {str(m.get("tool_call_id")): message_text(m) for m in request.messages
            if isinstance(m, dict) and m.get("role") == "tool"}


def after_tasks(turn: Turn) -> RecordedRequest | None:
    """The parent's request that carries its task calls' results (the one after the task reply)."""
    ids = {t.call_id for t in turn.tasks}
    for request in turn.requests:
        if ids & set(results(request)):
            return request
    return None


def body(request: RecordedRequest) -> str:
    return json.dumps(request.json, ensure_ascii=False)


def said_lines(run: Run) -> list[str]:
    return [line.strip() for line in run.said.splitlines()]


def shown(value, limit: int = 300) -> str:
    """A value on one line: a text with its line breaks shown as ⏎, anything else as JSON."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return short(text.replace("\r\n", "\n").replace("\n", " ⏎ "), limit)


def need(ctx, found, key: str, run: Run, **values):
    """`found`, or the check fails with `key` and the end of what the agent said."""
    if found is None or found == [] or found is False:
        raise CheckFailed(ctx.say(key, **values), seen=short(run.said[-600:] or ctx.evidence(run.result), 500))
    return found


def started(ctx, task: Task, run: Run, script: Script) -> RecordedRequest:
    """The subagent's first request, or the check fails saying what the parent got for the call."""
    if task.requests:
        return task.requests[0]
    got = None
    for turn in script.turns:
        for request in turn.requests:
            got = results(request).get(task.call_id, got)
    if got is not None:
        raise CheckFailed(ctx.say("task.not_started", call=task.call_id), seen=shown(got, 300))
    raise CheckFailed(ctx.say("task.no_result", call=task.call_id), seen=short(run.said[-600:] or ctx.evidence(run.result), 500))


# --------------------------------------------------------------------------- the logs

@dataclass
class Log:
    path: Path
    events: list[dict]

    @property
    def session(self) -> str:
        return self.path.stem

    def messages(self) -> list[dict]:
        return [e["message"] for e in self.events if e.get("type") == "message" and isinstance(e.get("message"), dict)]


def all_logs(sessions: Path) -> list[Log]:
    """Every session log under the sessions dir, at any depth."""
    found = []
    for path in sorted(Path(sessions).rglob("*.jsonl")) if Path(sessions).is_dir() else []:
        found.append(Log(path, [line.data for line in read_lines(path) if line.data is not None]))
    return found


def is_error(content: str) -> bool:
    """A failed tool result, as the course writes one since day 3: it starts with "error"."""
    return content.lstrip().lower().startswith("error")


CANCEL_WORDS = re.compile(r"cancel|interrupt|abort|stopp?ed by the user|ctrl-c", re.IGNORECASE)
CUT_WORDS = re.compile(r"cut|truncat|omit|shorten|trim|elided|dropped|left out|the rest|only (?:the|its) first|"
                       r"\d+ (?:more|further|remaining)", re.IGNORECASE)
FAIL_WORDS = re.compile(r"fail|400|invalid|refused|could not|bad request|request", re.IGNORECASE)
STOP_WORDS = re.compile(r"stop|cap\b|limit|round|budget|spent|exceed|ran out|too many", re.IGNORECASE)
