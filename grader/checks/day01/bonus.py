"""Day 01 bonus checks (reported as `bonus N/M`; collected through checks.py).

mock-selected reads only the start line and the mock's answer, so it rests on no
exercise point; history-grows-linearly runs a whole REPL conversation against the
fake server and counts what each request carried, so it rests on the history (E1,
E2) and on the HTTP client that carries it (E3, E4).
"""

from __future__ import annotations

from grader.checkkit import CheckFailed
from grader.checkkit.fakeserver import FakeModelServer, reply_json

from . import inputs
from .calls import CHAT_PATH, banners, has_traceback, wire_env
from .prompts import talk

__all__ = ["test_mock_selected", "test_history_grows_linearly"]


def test_mock_selected(ctx):
    """The start line on stderr says which model answers: the mock with MOCK=1 (even with a key) or with no key, the named model otherwise."""
    say, rng = ctx.say, ctx.rng("mock-selected")
    key, model, name = inputs.api_key(rng), inputs.model_name(rng), inputs.random_name(rng)
    prompt = f"my name is {name}"
    with FakeModelServer(model=lambda request: reply_json(inputs.nice_to_meet(name[::-1]))) as server:
        env = wire_env(server, key, model)
        cases = [(say("mock_case.both_set"), {k: v for k, v in env.items() if k != "MOCK"}, True),
                 (say("mock_case.no_key"), {k: v for k, v in env.items() if k != "MCA_API_KEY"}, False)]
        for what, extra, mock in cases:
            result = ctx.run_agent(prompt, cwd=ctx.workspace("mock-selected"), extra_env=extra, mock=mock)
            lines = banners(result)
            if len(lines) != 1 or "mock" not in lines[0]:
                raise CheckFailed(say("bonus.not_the_mock", what=what, count=len(lines)),
                                  seen=" | ".join(lines) or say("brief.no_banner"))
            if server.requests:
                raise CheckFailed(say("bonus.mock_called_out", what=what, count=len(server.requests)))
            ctx.expect_ok(result, say("bonus.mock_failed", what=what, status=result.returncode))
            if result.stdout.strip() != inputs.nice_to_meet(name):
                raise CheckFailed(say("bonus.mock_reply", what=what), expected=inputs.nice_to_meet(name),
                                  seen=result.stdout.strip() or say("brief.nothing"))
        real = ctx.run_agent(prompt, cwd=ctx.workspace("mock-selected-real"), extra_env=env, mock=False)
    lines = banners(real)
    if len(lines) != 1 or model not in lines[0] or "mock" in lines[0]:
        raise CheckFailed(say("bonus.not_the_model", model=model, count=len(lines)),
                          seen=" | ".join(lines) or say("brief.no_banner"))


def test_history_grows_linearly(ctx):
    """Over the wire, the request of turn N carries 2N messages: one system prompt, then every earlier turn's two messages and the new one."""
    say, rng = ctx.say, ctx.rng("history-grows-linearly")
    key, model = inputs.api_key(rng), inputs.model_name(rng)
    turns = rng.randint(4, 7)
    lines = [inputs.typed_line(rng) for _ in range(turns)]
    replies = [reply_json(inputs.text(rng), model=model) for _ in range(turns)]
    with FakeModelServer(replies) as server:
        result = talk(ctx, [*lines, "/exit"], "history-grows-linearly", extra_env=wire_env(server, key, model),
                      mock=False)
        requests = server.requests
    chat = [r for r in requests if r.method == "POST" and r.path == CHAT_PATH]
    counts = [len(r.messages) for r in chat]
    expected = [2 * n for n in range(1, turns + 1)]
    if len(chat) != turns:
        raise CheckFailed(say("bonus.requests", turns=turns, count=len(chat),
                              paths=", ".join(sorted({r.path for r in requests})) or say("brief.none")),
                          seen=ctx.evidence(result) if result.returncode or has_traceback(result) else None)
    if counts != expected:
        sizes = ", ".join(f"{len(r.body):,}" for r in chat)
        raise CheckFailed(say("bonus.growth", turns=turns, sizes=sizes),
                          expected=", ".join(map(str, expected)), seen=", ".join(map(str, counts)))
