"""Day 07: the lab's agent running for real - round 1 with the mock, a round killed while
its tool runs, and rounds against the grader's fake model server.

The fake server plays a model the grader owns (`script_model`): like the lab's mock it
decides from the history it is sent, so a second process that did not carry round 1
back cannot name the failing case; unlike the mock, it lets the grader see every
request exactly as the lab sent it.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from grader.checkkit import CheckFailed, ChildTimeout, provider, wait_until
from grader.checkkit.fakeserver import FakeModelServer, SSEStream, reply_stream
from grader.checkkit.sessionlog import Line, logs_in, read_lines

ROUND1 = "run the tests and tell me which case fails"
TEST_COMMAND = "python -m unittest -v"
SIGNAL_VAR = "TESTS_STARTED_FILE"  # read by blocking_prelude.py
WAIT_TIMEOUT = 15                    # seconds to wait for a signal from a running child
# Round 1 runs 8 hours east of UTC (a POSIX TZ string, no tz database needed), so an id
# or a ts made from local time cannot pass for UTC on a machine whose clock is in UTC.
NOT_UTC = {"TZ": "GRT-8"}
FAILED_CASE = re.compile(r"^(?:FAIL|ERROR): (\w+)", re.MULTILINE)
ROUND1_SHAPE = ["message system", "message user", "usage", "message assistant+tool_calls",
                "tool_end", "message tool", "usage", "message assistant"]


def workspace(ctx, name: str, blocking: bool = False) -> tuple[Path, Path]:
    """A scratch copy of the sample workspace and a sessions dir path beside it. `blocking`:
    its test suite signals that it started, then waits (blocking_prelude.py)."""
    ws = ctx.workspace(name)
    if blocking:
        tests = ws / "test_calc.py"
        tests.write_text((ctx.fixtures / "blocking_prelude.py").read_text(encoding="utf-8")
                         + tests.read_text(encoding="utf-8"), encoding="utf-8")
    return ws, ws.parent / "sessions"


def only_log(ctx, sessions: Path, key: str) -> Path:
    found = logs_in(sessions)
    if len(found) != 1:
        seen = ", ".join(p.name for p in sessions.iterdir()) if sessions.is_dir() else ""
        raise CheckFailed(ctx.say(key, seen=seen or ctx.say("brief.nothing")))
    return found[0]


# --------------------------------------------------------------------------- killed mid-tool

@dataclass
class Killed:
    workspace: Path
    sessions: Path
    during: list[Line]   # the log while the test suite ran
    after: list[Line]    # the log after the SIGKILL


def kill_during_tests(ctx, name: str) -> Killed:
    """Run round 1 on the blocking workspace, read the log while the tests run, SIGKILL."""
    ws, sessions = workspace(ctx, name, blocking=True)
    signal = ws.parent / "tests-started"
    with ctx.start_agent("--yes", "--sessions-dir", str(sessions), ROUND1, cwd=ws,
                         extra_env={SIGNAL_VAR: str(signal)}) as child:
        try:
            wait_until(lambda: signal.exists() or not child.running(), ctx.scaled(WAIT_TIMEOUT))
            if not signal.exists():
                if child.running():
                    child.kill()
                    raise ChildTimeout(child.wait(5), WAIT_TIMEOUT)
                result = child.wait(5)
                raise CheckFailed(ctx.say("live.never_started", status=result.returncode), seen=ctx.evidence(result))
            logs = logs_in(sessions)
            during = read_lines(logs[0]) if len(logs) == 1 else []
            child.kill()
            child.wait(5)
        finally:
            (ws.parent / "tests-started.release").touch()  # a stray test run stops waiting too
    logs = logs_in(sessions)
    return Killed(ws, sessions, during, read_lines(logs[0]) if len(logs) == 1 else [])


# --------------------------------------------------------------------------- the grader's model

def _reply(model: str, text: str, call: tuple[str, str, dict] | None = None):
    stream = SSEStream(model).role().text(*_pieces(text))
    if call is not None:
        call_id, name, args = call
        stream.tool_calls([(call_id, name, json.dumps(args))], pieces=3, interleave=False)
    return reply_stream(stream.finish("tool_calls" if call else "stop").usage(40, 12).done())


def _pieces(text: str) -> list[str]:
    third = max(1, len(text) // 3)
    return [text[:third], text[third:2 * third], text[2 * third:]]


def _last_user(messages: list) -> int:
    return max((i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"), default=-1)


def _failing_case(messages: list) -> str | None:
    for message in reversed(messages):
        found = FAILED_CASE.search(str(message.get("content") or "")) if message.get("role") == "tool" else None
        if found:
            return found.group(1)
    return None


def script_model(request):
    """Round 1 ("run the tests ..."): ask for the test run, then name the failing case.
    Any other request: name the failing case of an earlier run in the history, if any."""
    messages, model = request.messages, request.model or provider.model()
    start = _last_user(messages)
    asked = str(messages[start].get("content") or "").lower() if start >= 0 else ""
    if "run the tests" in asked:
        case = _failing_case(messages[start + 1:])
        if case is None:
            call = ("call_" + secrets.token_hex(3), "run_command", {"command": TEST_COMMAND})
            return _reply(model, "I will run the test suite.", call)
        return _reply(model, f"The failing case is {case}.")
    case = _failing_case(messages[:start])
    if case is None:
        return _reply(model, "I have no record of an earlier test run in this conversation.")
    return _reply(model, f"The earlier run showed {case} failing. I will look at divide() next.")


def model_server(**options) -> FakeModelServer:
    """The grader's model on a loopback port, refusing an invalid history as a real API does."""
    return FakeModelServer(model=script_model, enforce_chain=True, **options)


def to_wire(message: dict) -> dict:
    """A logged message in the shape the OpenAI-compatible API carries it (the contract of the wire)."""
    out = {"role": message.get("role"), "content": message.get("content")}
    if message.get("tool_calls"):
        out["tool_calls"] = [{"id": c.get("id"), "name": c.get("name"), "args": c.get("args")}
                             for c in message["tool_calls"]]
    if message.get("tool_call_id"):
        out["tool_call_id"] = message["tool_call_id"]
    return out


def history_problem(say, request, logged: list[dict], prompt: str, where: str) -> str | None:
    """Why a request's messages are not `logged` (as the log holds them, in order) followed
    by the user's `prompt`; None when they are exactly that."""
    from .compare import messages_differ

    sent = [from_wire(m) for m in request.messages]
    expected = [to_wire(m) for m in logged] + [{"role": "user", "content": prompt}]
    if sent == expected:
        return None
    ends_right = sent[-1:] == expected[-1:]
    why = messages_differ(say, sent[:-1] if ends_right else sent, expected[:-1], where)
    return why or say("resume.prompt_not_last", prompt=prompt)


def from_wire(message) -> dict:
    """A message of a request, back in the log's shape (arguments parsed), for comparing."""
    if not isinstance(message, dict):
        return {"role": None, "content": repr(message)}
    out = {"role": message.get("role"), "content": message.get("content")}
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            args = json.loads(function.get("arguments") or "{}")
        except ValueError:
            args = function.get("arguments")
        calls.append({"id": call.get("id"), "name": function.get("name"), "args": args})
    if calls:
        out["tool_calls"] = calls
    if message.get("tool_call_id"):
        out["tool_call_id"] = message["tool_call_id"]
    return out
