"""Day 10: running the lab's agent against the fake model server with its memory files in
scratch directories, and reading what reached the model, what it printed and logged.

The memory files are named the way a user names them: `MCA_USER_MEMORY` for the user's
file (an empty home otherwise), and the project's either at its default place in the
workspace (`.mca/memory.jsonl`) or by `MCA_PROJECT_MEMORY`. The fake model calls the
`remember` tool with the texts a check chose, then says "Noted.".
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

from grader.checkkit import CheckFailed, ChildResult
from grader.checkkit.context import TURN_TIMEOUT
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest
from grader.checkkit.replies import reply_stream
from grader.checkkit.sse import SSEStream
from grader.checkkit.sessionlog import logs_in, read_lines
from grader.checkkit.turns import LETTERS, WIDE_FROM, estimate, marker, token  # noqa: F401 - the checks import them from here


@dataclass
class Files:
    """Where one scenario's memory files are, and the environment that names them."""

    user: Path
    project: Path
    env: dict

    def read(self) -> dict[str, bytes]:
        return {"user": self.user.read_bytes() if self.user.is_file() else b"",
                "project": self.project.read_bytes() if self.project.is_file() else b""}

    def texts(self) -> list[str]:
        """Every text an add record of either file holds (read leniently, line by line)."""
        found = []
        for data in self.read().values():
            for raw in data.split(b"\n"):
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(record, dict) and isinstance(record.get("text"), str):
                    found.append(record["text"])
        return found


def memory_files(ctx, name: str, workspace: Path, *, project_by_env: bool) -> Files:
    home = ctx.tmp(f"{name}-home")
    user = home / ".config-notes" / "memory.jsonl"
    env = {"MCA_USER_MEMORY": str(user)}
    if project_by_env:
        project = ctx.tmp(f"{name}-proj") / "notes.jsonl"
        env["MCA_PROJECT_MEMORY"] = str(project)
    else:
        project = workspace / ".mca" / "memory.jsonl"
    return Files(user, project, env)


def remember_calls(texts: list[tuple[str, str]]):
    """A streamed reply of remember calls, ids call_1, call_2, ..."""
    calls = [(f"call_{n}", "remember", json.dumps({"text": text, "scope": scope}, ensure_ascii=False))
             for n, (text, scope) in enumerate(texts, 1)]
    stream = SSEStream().role().text("I will keep that. ").tool_calls(calls, pieces=2)
    return reply_stream(stream.finish("tool_calls").usage(100, 20).done())


def text_reply(text: str):
    return reply_stream(SSEStream().role().text(text).finish().usage(100, 5).done())


def memory_model(texts: list[tuple[str, str]]):
    """A model that answers a user message with remember calls for `texts` ((text, scope)), and
    their results with "Noted."."""
    def model(request: RecordedRequest):
        messages = request.messages
        if texts and messages and isinstance(messages[-1], dict) and messages[-1].get("role") == "user":
            return remember_calls(texts)
        return text_reply("Noted.")
    return model


@dataclass
class Turn:
    result: ChildResult
    requests: list[RecordedRequest]
    sessions: Path

    def events(self) -> list[dict]:
        logs = logs_in(self.sessions)
        if len(logs) != 1:
            return []
        return [line.data for line in read_lines(logs[0]) if line.data is not None]

    def tool_results(self) -> dict[str, str]:
        """call id -> the tool message's content, from the last request."""
        if not self.requests:
            return {}
        return {str(m.get("tool_call_id")): str(m.get("content", "")) for m in self.requests[-1].messages
                if isinstance(m, dict) and m.get("role") == "tool"}


def run_turn(ctx, workspace: Path, files: Files, prompt: str, *, texts: list[tuple[str, str]] = (),
             args: tuple[str, ...] = ("--yes",), sessions: Path | None = None, resume: bool = False,
             api_key: str | None = None, server: FakeModelServer | None = None, tty: bool = False) -> Turn:
    """One turn of the agent in `workspace`; the model calls remember with `texts` (`server`: one
    already started, for a session a second process resumes: the session keeps its URL). `tty`: on
    a pseudo-terminal of its own, as a person runs it (stdout and stderr are then one screen)."""
    sessions = sessions or ctx.tmp("sessions")
    argv = ["--sessions-dir", str(sessions), *args] + (["--resume"] if resume else []) + [prompt]
    if server is None:
        with FakeModelServer(model=memory_model(list(texts))) as server:
            return run_turn(ctx, workspace, files, prompt, args=args, sessions=sessions, resume=resume,
                            api_key=api_key, server=server, tty=tty)
    before = len(server.requests)
    extra_env = {**server.env(api_key=api_key), **files.env}
    if tty:
        with ctx.start_agent(*argv, cwd=workspace, extra_env=extra_env, mock=False, tty=True) as child:
            result = child.wait(TURN_TIMEOUT)
    else:
        result = ctx.run_agent(*argv, cwd=workspace, extra_env=extra_env, mock=False, timeout=TURN_TIMEOUT)
    requests = [r for r in server.requests[before:] if r.path.endswith("/chat/completions")]
    return Turn(result, requests, sessions)


def run_repl(ctx, workspace: Path, files: Files, lines: list[str]) -> ChildResult:
    """The REPL with `lines` typed (then /exit); no model is needed for slash commands."""
    with FakeModelServer(model=memory_model([])) as server:
        return ctx.run_agent("--sessions-dir", str(ctx.tmp("sessions")), cwd=workspace,
                             input="".join(line + "\n" for line in lines + ["/exit"]),
                             extra_env={**server.env(), **files.env}, mock=False, timeout=TURN_TIMEOUT)


def first_request(ctx, turn: Turn) -> RecordedRequest:
    ctx.expect_ok(turn.result)
    if not turn.requests:
        raise CheckFailed(ctx.say("turn.no_request"), seen=ctx.evidence(turn.result))
    return turn.requests[0]


def holding(request: RecordedRequest, texts: list[str]) -> list[dict]:
    """The messages of `request` whose text holds any of `texts`."""
    out = []
    for m in request.messages:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, str) and any(t in content for t in texts):
            out.append(m)
    return out


def everything(request: RecordedRequest) -> str:
    return json.dumps(request.json, ensure_ascii=False)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
