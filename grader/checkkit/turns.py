"""One turn of the lab's agent against the fake model server, and what it left behind:
the requests the model received, what the agent printed and what it logged.

The days that judge what the agent puts into the context on its own (day 8's
@-references, day 9's instructions) run the agent as `python -m mca PROMPT` (or a REPL
fed on stdin) in a workspace the check filled with generated files, talking to the
grader's fake model server (fakeserver.py), which records every request.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from grader.checkkit.failures import CheckFailed
from grader.checkkit.context import TURN_TIMEOUT
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest, reply_json
from grader.checkkit.sessionlog import logs_in, read_lines
from grader.checkkit.terminal import screen, type_lines
from grader.spawn import ChildResult, scaled

WIDE_FROM = 0x0800  # the bill's documented estimate: ceil(narrow / 4) + wide (mca/refs/bill.py)
LETTERS = "abcdefghijkmnpqrstuvwxyz"


def estimate(text: str) -> int:
    """The documented token estimate of the lab sheet and mca/refs/bill.py."""
    wide = len([ch for ch in text if ord(ch) >= WIDE_FROM])
    return (len(text) - wide + 3) // 4 + wide


def token(rng, n: int = 6) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(n))


def marker(rng, what: str = "m") -> str:
    """A string that can only be in a request if the agent put it there."""
    return f"{what}{token(rng, 10)}"


@dataclass
class Turn:
    result: ChildResult
    requests: list[RecordedRequest]
    workspace: Path
    sessions: Path
    problems: list[str] = field(default_factory=list)
    tty: bool = False  # the agent ran on a pseudo-terminal: stdout and stderr are one screen

    @property
    def said(self) -> str:
        """What the agent told the user: stderr, or the whole screen when it ran on a terminal
        (LF line ends, the echo of what was typed taken off: terminal.screen)."""
        return screen(self.result.stdout) if self.tty else self.result.stderr

    @property
    def printed(self) -> str:
        """What the agent printed on stdout (a reply, the REPL's prompts and listings): stdout,
        or the whole screen when it ran on a terminal, where stderr is on it too."""
        return screen(self.result.stdout) if self.tty else self.result.stdout

    @property
    def first(self) -> RecordedRequest | None:
        return self.requests[0] if self.requests else None

    def log_events(self) -> list[dict]:
        logs = logs_in(self.sessions)
        if len(logs) != 1:
            return []
        return [line.data for line in read_lines(logs[0]) if line.data is not None]


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


def run_turn(ctx, name: str, prompt: str | None, files: dict[str, str | bytes] | None = None, *,
             workspace: Path | None = None, sessions: Path | None = None, resume: bool = False,
             server: FakeModelServer | None = None, tty: bool = False, cwd: Path | None = None,
             typed: str | None = None, env: dict[str, str] | None = None,
             timeout: float = TURN_TIMEOUT, options: tuple[str, ...] = (),
             answer: Callable[[str], str] | None = None, question: str | None = None) -> Turn:
    """One turn of the agent in a fresh workspace (or `workspace`) against a fake model server
    (`server`, already started, for a session a second process resumes: the session keeps its URL).
    `tty`: on a pseudo-terminal of its own (stdin, stdout and stderr), as a person runs it, so an
    agent that behaves only when nobody is at a terminal is seen; what it printed is then one
    screen (`Turn.said`, `Turn.printed`, never `result.stderr`). `cwd`: where the agent runs (default
    the workspace; the workdir is then the agent's default). `prompt` None and `typed`: the REPL,
    fed `typed` on stdin, one request or command per line (on a terminal each line is typed at its
    prompt, terminal.type_lines, and the echo is not part of what it said). `env`: more variables for the agent
    (a day's settings, such as a threshold); `timeout`: for a REPL fed many turns; `options`: more of
    the agent's command line before the prompt (`--yes`, `--rule "allow write_file"`, `--resume ID`).
    `question` and `answer`: on a terminal, each time the screen shows `question` once more (the end
    of a y/N question the agent asks), `answer(the line that asks)` is typed."""
    ws = workspace if workspace is not None else ctx.workspace(name)
    write_files(ws, files or {})
    sessions = sessions if sessions is not None else ws.parent / "sessions"
    args = ["--sessions-dir", str(sessions), *options] + (["--resume"] if resume else []) + \
        ([prompt] if prompt is not None else [])
    if server is None:
        with model_server() as server:
            return run_turn(ctx, name, prompt, workspace=ws, sessions=sessions, resume=resume, server=server,
                            tty=tty, cwd=cwd, typed=typed, env=env, timeout=timeout, options=options,
                            answer=answer, question=question)
    before = len(server.requests)
    extra_env = {**server.env(), **(env or {})}
    if tty:
        with ctx.start_agent(*args, cwd=cwd or ws, extra_env=extra_env, mock=False, tty=True) as child:
            if typed is None:
                result = child.wait(timeout)
            else:  # each line at its prompt, as a person types it; one time limit for the session
                deadline = time.monotonic() + scaled(timeout)
                type_lines(child, typed.splitlines(), step=timeout, deadline=deadline, answer=answer,
                           question=question)
                result = child.wait(max(1.0, deadline - time.monotonic()), exact=True)
    else:
        result = ctx.run_agent(*args, cwd=cwd or ws, extra_env=extra_env, mock=False, timeout=timeout,
                               input=typed)
    requests = [r for r in server.requests[before:] if r.path.endswith("/chat/completions")]
    return Turn(result, requests, ws, sessions, server.problems, tty)


def model_server() -> FakeModelServer:
    """A fake model that answers every request with one short text."""
    return FakeModelServer(model=lambda request: reply_json("Noted."))


def expect_sent(ctx, turn: Turn, prompt: str) -> RecordedRequest:
    """The turn exited 0 and sent one request; returns it."""
    ctx.expect_ok(turn.result)
    if not turn.requests:
        raise CheckFailed(ctx.say("turn.no_request", prompt=prompt), seen=ctx.evidence(turn.result))
    return turn.requests[0]


def user_content(request: RecordedRequest) -> object:
    users = [m.get("content") for m in request.messages if isinstance(m, dict) and m.get("role") == "user"]
    return users[-1] if users else None


def text_of(content: object) -> str:
    """A message content's text: the string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def everything(request: RecordedRequest) -> str:
    """The whole request body as text (every message, decoded): for "nothing of X was sent"."""
    return json.dumps(request.json, ensure_ascii=False)
