"""Day 01 checks: the REPL and the gateway - the model has no memory, we carry the history.

The contract is shared/days/day-01.md. How the checks get their inputs:

* one-shot, repl-starts, remembers-a-name and repl-edges run the lab's agent with the
  mock (`python -m mca`, a prompt argument or lines on a pipe; repl-edges gives a name,
  sends Ctrl-C to the running REPL, asks for the name and then ends its input, and
  compares the answer with that of a REPL given the same lines without the Ctrl-C);
* history-carried and system-prompt-once hold a conversation with the lab's Chat over
  a gateway that records every message list it is handed (harnesses/chat_turns.py):
  what Chat.ask sends is judged at the seam, apart from the HTTP client;
* request-shape sends the requests the lab's build_request builds to the grader's fake
  model server (harnesses/build_request.py), which records them as they arrive;
* reply-parsed, http-error-one-line and server-unreachable run the agent against the
  fake server (or a closed port) and read what it printed and its exit status: replies
  with text, with null content and with no content key; errors whose JSON message runs
  over several lines, and error bodies that are HTML pages or plain text.

Names, texts, replies, error messages, model names and keys are drawn per run from
the printed seed. Student code runs only in children. Wording lives in messages.toml.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from grader.checkkit import CheckFailed, differing, short, short_end
from grader.checkkit.fakeserver import FakeModelServer, error_body, reply_json, reply_status

from . import inputs
from .calls import (CHAT_PATH, NOT_MOCK, chat_turns, closed_port, expect_chat_request,
                    has_traceback, one_shot, said_lines, shown_lines, squeezed, stub_that_raised,
                    wire_env)
from .prompts import PROMPT, Live, answers, converse, talk
from .roles import first_difference, roles


# --------------------------------------------------------------------------- the agent at all

def test_one_shot(ctx):
    """`python -m mca PROMPT` with the mock prints the reply to PROMPT as one line on stdout and exits 0."""
    name = inputs.random_name(ctx.rng("one-shot"))
    result = ctx.run_agent(f"my name is {name}", cwd=ctx.workspace("one-shot"))
    ctx.expect_ok(result, ctx.say("agent.failed", command=result.short_command(), status=result.returncode))
    printed = [line for line in result.stdout.split("\n") if line.strip()]
    expected = inputs.nice_to_meet(name)
    if printed != [expected]:
        raise CheckFailed(ctx.say("agent.one_reply", prompt=f"my name is {name}"), expected=expected,
                          seen=" | ".join(printed) or ctx.say("brief.no_stdout"))


def test_repl_starts(ctx):
    """Without a prompt the REPL shows `you > `, answers a line, and `/exit` ends it with status 0 before any later line is read."""
    rng = ctx.rng("repl-starts")
    name, later = inputs.random_name(rng), inputs.random_name(rng) + "x"
    # on a pseudo-terminal, as a person starts it (a REPL right only on a pipe is wrong where it matters)
    result, said = converse(ctx, [f"my name is {name}", "/exit", f"my name is {later}"], "repl-starts")
    ctx.expect_ok(result, ctx.say("agent.failed", command=result.short_command(), status=result.returncode))
    if PROMPT not in result.stdout:
        raise CheckFailed(ctx.say("agent.no_prompt"), seen=short_end(result.stdout, 300) or ctx.say("brief.no_stdout"))
    if said[0] != inputs.nice_to_meet(name):
        raise CheckFailed(ctx.say("agent.repl_reply", line=f"my name is {name}"),
                          expected=inputs.nice_to_meet(name), seen=said[0] or ctx.say("brief.nothing"))
    if inputs.nice_to_meet(later) in result.stdout or len(said) != 2:
        raise CheckFailed(ctx.say("agent.exit_late", prompts=len(said)), seen=" | ".join(said))


# --------------------------------------------------------------------------- E1, E2: the history

def test_history_carried(ctx):
    """Every turn's request starts with a system message and then carries the whole conversation so far: each earlier user and assistant message, in order and exactly as said (an empty reply and white space at a reply's ends included), then the new user message, nothing else."""
    rng = ctx.rng("history-carried")
    users, replies = inputs.conversation(rng, rng.randint(4, 7), repeat=True)  # an empty reply, a padded one
    requests = chat_turns(ctx, users, replies, "history-carried")
    said = [m for pair in zip(users, replies) for m in ({"role": "user", "content": pair[0]},
                                                        {"role": "assistant", "content": pair[1]})]
    for turn, request in enumerate(requests, 1):
        if not request or request[0].get("role") != "system":
            raise CheckFailed(ctx.say("history.no_system", turn=turn, first=roles(request[:1])))
        carried = [m for m in request if m.get("role") != "system"]
        expected = said[:2 * turn - 1]
        wrong = first_difference(ctx.say, carried, expected)
        if wrong is not None:
            raise CheckFailed(ctx.say("history.not_carried", turn=turn, count=len(expected), why=wrong),
                              expected=roles([request[0], *expected]), seen=roles(request))


def test_remembers_a_name(ctx):
    """In one REPL with the mock, after "my name is X" and a few other turns, "what is my name?" gets "Your name is X." (and, asked before, "I have no record ...")."""
    rng = ctx.rng("remembers-a-name")
    name = inputs.random_name(rng)
    others = [inputs.typed_line(rng) for _ in range(rng.randint(1, 3))]
    lines = [inputs.ASK_NAME, f"my name is {name}", *others, inputs.ASK_NAME, "/exit"]
    result, said = converse(ctx, lines, "remembers-a-name")  # on a terminal, as a person talks to it
    ctx.expect_ok(result, ctx.say("agent.failed", command=result.short_command(), status=result.returncode))
    if len(said) < len(lines):
        raise CheckFailed(ctx.say("name.short", lines=len(lines) - 1, count=max(0, len(said) - 1)),
                          seen=short_end(" | ".join(said), 300))
    if said[0] != inputs.NO_RECORD:
        raise CheckFailed(ctx.say("name.knew_before"), expected=inputs.NO_RECORD, seen=said[0])
    if said[1] != inputs.nice_to_meet(name):
        raise CheckFailed(ctx.say("name.not_greeted", name=name), expected=inputs.nice_to_meet(name), seen=said[1])
    asked = said[len(lines) - 2]
    if asked != inputs.your_name_is(name):
        raise CheckFailed(ctx.say("name.forgot", name=name, turns=len(others)), expected=inputs.your_name_is(name),
                          seen=asked)


def test_system_prompt_once(ctx):
    """Every turn's request holds exactly one system message, and it comes first (turn 3 included)."""
    rng = ctx.rng("system-prompt-once")
    users, replies = inputs.conversation(rng, rng.randint(3, 6))
    requests = chat_turns(ctx, users, replies, "system-prompt-once")
    for turn, request in enumerate(requests, 1):
        at = [index + 1 for index, m in enumerate(request) if m.get("role") == "system"]
        if at != [1]:
            raise CheckFailed(ctx.say("system.count", turn=turn, count=len(at),
                                      where=", ".join(map(str, at)) or ctx.say("brief.nowhere")),
                              expected=ctx.say("brief.one_system"),
                              seen=ctx.say("brief.system_at", at=at or ctx.say("brief.no_position"),
                                           roles=roles(request)))


# --------------------------------------------------------------------------- E3: the request

def test_request_shape(ctx):
    """build_request gives a POST to /v1/chat/completions for a base URL with or without /v1 and a trailing slash, with a Bearer key and a JSON body of the model and the messages."""
    say, rng = ctx.say, ctx.rng("request-shape")
    key, model, messages = inputs.api_key(rng), inputs.model_name(rng), inputs.request_messages(rng)
    with FakeModelServer(model=lambda request: reply_json("ok")) as server:
        root = server.root_url
        bases = [root, root + "/", root + "/v1", root + "/v1/"]
        rng.shuffle(bases)
        job = {"bases": bases, "key": key, "model": model, "messages": messages}
        found = ctx.harness_answers("build_request", job, count=len(bases), calls="build_request",
                                    label="request-shape")
        requests = server.requests
    arrived = iter(requests)
    for answer in found:
        base = answer["base"]
        problem = ctx.harness_problem(answer, "build_request", say("what.base_url", base=base))
        if problem:
            raise problem
        if "elsewhere" in answer:
            raise CheckFailed(say("shape.elsewhere", base=base, url=answer.get("url")))
        if "unsent" in answer:
            raise CheckFailed(say("shape.unsent", base=base, url=answer.get("url"), error=answer["unsent"]))
        request = next(arrived, None)
        if request is None:
            raise CheckFailed(say("shape.lost", base=base))
        _judge_request(say, base, answer.get("url", ""), request, key, model, messages)


def _judge_request(say, base, url, request, key, model, messages) -> None:
    where = f"{request.method} {request.path}"
    if request.method != "POST" or request.path != CHAT_PATH or urlsplit(url).path != CHAT_PATH:
        raise CheckFailed(say("shape.url", base=base, where=where, url=url), expected=f"POST {CHAT_PATH}",
                          seen=f"{request.method} {url}")
    if request.headers.get("authorization") != f"Bearer {key}":
        raise CheckFailed(say("shape.bearer", base=base), expected="Authorization: Bearer <MCA_API_KEY>",
                          seen=_header(say, request, "authorization"))
    if "application/json" not in request.headers.get("content-type", ""):
        raise CheckFailed(say("shape.content_type", base=base), seen=_header(say, request, "content-type"))
    body = request.json
    if not isinstance(body, dict):
        raise CheckFailed(say("shape.not_json", base=base), seen=short(request.body, 200))
    if body.get("model") != model:
        raise CheckFailed(say("shape.model", base=base), expected=model,
                          seen=body.get("model", say("brief.no_model_field")))
    sent = body.get("messages")
    if not isinstance(sent, list):
        raise CheckFailed(say("shape.no_messages", base=base), seen=sorted(body))
    wrong = first_difference(say, [m if isinstance(m, dict) else {"role": None, "content": repr(m)} for m in sent],
                             messages)
    if wrong is not None:
        raise CheckFailed(say("shape.messages", base=base, count=len(messages), why=wrong),
                          expected=roles(messages), seen=roles([m for m in sent if isinstance(m, dict)]))
    if body.get("stream") is True:
        raise CheckFailed(say("shape.stream", base=base))


def _header(say, request, name: str) -> str:
    value = request.headers.get(name)
    return f"{name}: {value}" if value is not None else say("brief.no_header", name=name)


# --------------------------------------------------------------------------- E4: the answer

def test_reply_parsed(ctx):
    """Against the fake server, the one-shot prints choices[0].message.content exactly, white space at its ends included, then one newline."""
    say, rng = ctx.say, ctx.rng("reply-parsed")
    key, model, content = inputs.api_key(rng), inputs.model_name(rng), inputs.padded_text(rng)
    absent, shape = inputs.reply_without_content(rng, model)
    shape = say(shape)
    with FakeModelServer([reply_json(content, model=model), reply_json(None, model=model), absent]) as server:
        env = wire_env(server, key, model)
        full = one_shot(ctx, inputs.typed_line(rng), env, "reply-parsed")
        expect_chat_request(ctx, server, full)
        empty = one_shot(ctx, inputs.typed_line(rng), env, "reply-parsed-null")
        missing = one_shot(ctx, inputs.typed_line(rng), env, "reply-parsed-no-content")
    ctx.expect_ok(full, say("reply.failed", status=full.returncode))
    if full.stdout != content + "\n":  # byte for byte: the reply's own white space at its ends is the reply
        seen, expected = differing(full.stdout, content + "\n")
        raise CheckFailed(say("reply.not_content"), expected=expected, seen=seen)
    ctx.expect_ok(empty, say("reply.null_failed", status=empty.returncode))
    if empty.stdout.strip() or has_traceback(empty):
        raise CheckFailed(say("reply.null_printed"), expected=say("brief.no_stdout"),
                          seen=empty.stdout.strip() or ctx.evidence(empty))
    if missing.returncode != 0 or has_traceback(missing) or missing.stdout.strip():
        raise CheckFailed(say("reply.absent", shape=shape, status=missing.returncode),
                          expected=say("brief.no_stdout_status_0"),
                          seen=short(missing.stdout.strip(), 200) or ctx.evidence(missing))


def test_http_error_one_line(ctx):
    """A 401 and a 500 from the server (their messages over several lines), and a 5xx whose body is an HTML page or plain text, not JSON, each end the one-shot with status 1 and one line naming the status and the server's own message, no traceback."""
    say, rng = ctx.say, ctx.rng("http-error-one-line")
    key, model = inputs.api_key(rng), inputs.model_name(rng)
    for code, kind in ((401, "invalid_request_error"), (500, "server_error")):
        message = inputs.error_text(rng)
        with FakeModelServer([reply_status(code, error_body(message, kind))]) as server:
            result = one_shot(ctx, inputs.typed_line(rng), wire_env(server, key, model), f"http-{code}")
            expect_chat_request(ctx, server, result)
        if has_traceback(result):
            raise CheckFailed(say("error.traceback", code=code), seen=ctx.evidence(result))
        if result.returncode != 1:
            raise CheckFailed(say("error.status", code=code, status=result.returncode), seen=ctx.evidence(result))
        lines = shown_lines(result)
        if len(lines) != 1:
            if len(lines) > 1 and squeezed(message) in squeezed(" ".join(lines)):  # the message's own breaks
                problem = say("error.lines_in_message", code=code, count=len(lines))
            else:
                problem = say("error.lines", code=code, count=len(lines))
            raise CheckFailed(problem, expected=f"HTTP {code}: {squeezed(message)}", seen=short(" | ".join(lines), 300))
        if not re.search(rf"(?<!\d){code}(?!\d)", lines[0]) or squeezed(message) not in squeezed(lines[0]):
            raise CheckFailed(say("error.unnamed", code=code), expected=f"HTTP {code}: {squeezed(message)}",
                              seen=lines[0])
    pages = [(say("what.html_page"), "text/html; charset=utf-8", *inputs.html_error(rng), False),
             (say("what.plain_text"), "text/plain; charset=utf-8", *inputs.text_error(rng), True)]
    rng.shuffle(pages)
    for body, content_type, code, text, named in pages:
        reply = reply_status(code, text=text, headers={"Content-Type": content_type})
        with FakeModelServer([reply]) as server:
            result = one_shot(ctx, inputs.typed_line(rng), wire_env(server, key, model), f"http-{code}-not-json")
            expect_chat_request(ctx, server, result)
        if has_traceback(result):
            raise CheckFailed(say("error.traceback_not_json", code=code, body=body), seen=ctx.evidence(result))
        if result.returncode != 1:
            raise CheckFailed(say("error.status_not_json", code=code, body=body, status=result.returncode),
                              seen=ctx.evidence(result))
        lines = shown_lines(result)
        if len(lines) != 1:
            raise CheckFailed(say("error.lines_not_json", code=code, body=body, count=len(lines)),
                              seen=short(" | ".join(lines), 300))
        if not re.search(rf"(?<!\d){code}(?!\d)", lines[0]) or (named and squeezed(text) not in squeezed(lines[0])):
            raise CheckFailed(say("error.unnamed_not_json", code=code, body=body),
                              expected=f"HTTP {code}: {short(squeezed(text), 120)}", seen=lines[0])


def test_server_unreachable(ctx):
    """A base URL on a closed port ends the one-shot with status 1 and one line that names the URL it tried, no traceback."""
    say, rng = ctx.say, ctx.rng("server-unreachable")
    with closed_port() as port:
        base = f"http://127.0.0.1:{port}/v1"
        env = {"MCA_BASE_URL": base, "MCA_API_KEY": inputs.api_key(rng), "MCA_MODEL": inputs.model_name(rng),
               **NOT_MOCK}
        result = one_shot(ctx, inputs.typed_line(rng), env, "server-unreachable")
    if has_traceback(result):
        stub = stub_that_raised(result)  # the function whose TODO raised, from the traceback's last frame
        if stub is not None:
            problem = (say("unreachable.stub_request") if stub == "build_request"
                       else say("unreachable.stub_error") if stub == "error_of"
                       else say("unreachable.stub_other", function=stub))
            raise CheckFailed(problem, seen=ctx.evidence(result))
        raise CheckFailed(say("unreachable.traceback"), seen=ctx.evidence(result))
    if result.returncode != 1:
        raise CheckFailed(say("unreachable.status", status=result.returncode), seen=ctx.evidence(result))
    lines = said_lines(result)
    if len(lines) != 1 or f"127.0.0.1:{port}" not in lines[0]:
        raise CheckFailed(say("unreachable.unnamed", base=base, count=len(lines)),
                          expected=say("brief.one_line_naming", base=base),
                          seen=short(" | ".join(lines), 300) or say("brief.nothing"))


# --------------------------------------------------------------------------- E5: the REPL's edges

def test_repl_edges(ctx):
    """In the REPL on a terminal an empty or blank line sends nothing, Ctrl-C at the prompt gives a fresh prompt and keeps the conversation (a question that needs the name given before it is answered as in the same REPL without the Ctrl-C), and the end of input exits with status 0."""
    say, rng = ctx.say, ctx.rng("repl-edges")
    name = inputs.random_name(rng)
    blank = rng.choice((" ", "   ", "\t", " \t "))
    # What the same REPL answers without the Ctrl-C: the answer after it must be the same. So
    # the check needs nothing of how the history is carried (E1's checks judge that).
    unbroken = answers(talk(ctx, [f"my name is {name}", inputs.ASK_NAME, "/exit"], "repl-edges-unbroken").stdout)
    # on a pseudo-terminal, as a person at a terminal runs it (a REPL that behaves only when
    # its input is a pipe is wrong where it matters)
    with ctx.start_agent(cwd=ctx.workspace("repl-edges"), tty=True) as child:
        live = Live(ctx, child, terminal=True)
        live.expect_prompt(1, say("doing.starting"))
        child.send("\n")
        live.expect_prompt(2, say("doing.empty_line"))
        child.send(blank + "\n")
        live.expect_prompt(3, say("doing.blank_line"))
        if live.between(1, 3):
            raise CheckFailed(say("edges.sent_empty"), expected=say("brief.no_reply"),
                              seen=short(squeezed(live.between(1, 3)), 200))
        child.send(f"my name is {name}\n")
        live.expect_prompt(4, say("doing.name", name=name))
        live.interrupt(5)
        child.send(inputs.ASK_NAME + "\n")
        live.expect_prompt(6, say("doing.after_ctrl_c"))
        after = live.after(5)
        if not after:
            raise CheckFailed(say("edges.after_ctrl_c"), expected=say("brief.a_reply"), seen=say("brief.nothing"))
        if len(unbroken) >= 2 and after != unbroken[1]:
            raise CheckFailed(say("edges.forgot_after_ctrl_c", name=name), expected=unbroken[1], seen=after)
        child.close_stdin()
        result = live.finish(10, say("doing.end_of_input"))
    if has_traceback(result) or result.returncode != 0:
        raise CheckFailed(say("edges.eof", status=result.returncode), seen=ctx.evidence(result))


from .bonus import *  # noqa: E402,F401,F403 - the bonus checks, after the core ones
