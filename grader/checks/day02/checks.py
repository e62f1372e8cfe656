"""Day 02 checks: streaming, and the two kinds of event (what the gateway said, what the loop did).

The contract is shared/days/day-02.md. How the checks get their inputs:

* the wire checks run the lab's agent against the grader's fake model server, which
  streams replies generated for this run (streams.py: mixed ASCII/CJK/emoji text with
  a raw line separator, random pieces, framing, comments and byte splits); what the
  agent understood is read from the next request of a REPL (the history holds the
  assistant message it built), what it showed from its stdout and stderr (wire.py);
* streams-before-done holds the stream at a gate until the grader has seen the
  first piece on the child's stdout: no timing guess; it is the one check whose agent
  runs without `python -u` (as a student runs it), so a piece written without a flush
  stays in the buffer and is not seen;
* no-doubled-text runs the mock (no SSE involved) and compares stdout exactly, for a
  plain reply and for one that also asks for a tool ("read PATH");
* one-call-merged and layers-apart call one part of the lab through a harness
  (harnesses/merge.py: merge_chunk on provider chunks; harnesses/screen.py: Screen
  fed agent events, with the gateway package made unimportable).

Student code runs only in children. Failure wording lives in messages.toml.
"""

from __future__ import annotations

import json
import re

from grader.checkkit import CheckFailed, short, short_end, wait_until
from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI
from grader.checkkit.fakeserver import FakeModelServer, Gate, reply_stream

from .merging import call_problem, merged, one_call_cases
from .screening import described, first_difference, rendered, script
from .streams import (Reply, call_id, cut, cut_cases, cut_keeping, cut_points, every_feature, interleaved, padded,
                      reply_text, short_text, tool_args, tool_name, with_done_marker)
from .wire import (call_lines, converse, error_lines, expect_texts, model_name, one_shots, status_kinds,
                   tokens_lines)

WAIT_SECONDS = 10   # how long the first piece may take to reach stdout while the server holds the rest
CUT_WORDS = re.compile(r"\bcut\b|\[DONE\]|incomplete|truncat|ended (early|before)|prematur|unfinished"
                       r"|interrupted|\bbroke|closed", re.IGNORECASE)


def _usage(rng) -> tuple[int, int]:
    """Token counts no estimate of a short reply comes near (and never equal to each other)."""
    return rng.randrange(1_000, 90_000), rng.randrange(100, 999)


# --------------------------------------------------------------------------- streaming

def test_streams_before_done(ctx):
    """The first piece of a streamed reply is on stdout while the server still holds the rest back (the agent runs as a person runs it, without `python -u`, so an unflushed write stays unseen)."""
    say = ctx.say
    rng = ctx.rng("streams-before-done")
    model = model_name(ctx, "streams-before-done")
    text = reply_text(rng)
    first, *rest = cut(rng, text, rng.randint(3, 6))
    gate = Gate(timeout=ctx.scaled(WAIT_SECONDS) + 20)
    reply = Reply(rng, model).role().text([first])
    reply.stream.gate(gate)
    reply.text(rest).finish().usage(*_usage(rng)).done()
    with FakeModelServer([reply_stream(reply.stream)]) as server:
        with ctx.start_agent(short_text(rng), cwd=ctx.workspace("streams-before-done"),
                             extra_env=server.env(model=model), mock=False, unbuffered=False) as child:
            wait_until(lambda: first in child.stdout_so_far() or not child.running(), ctx.scaled(WAIT_SECONDS))
            shown, running, reached = child.stdout_so_far(), child.running(), gate.reached.is_set()
            gate.open()
            result = child.wait(30)
    if first not in shown or gate.timed_out:
        if not running:  # it ended by itself: a stub, a crash, an error line
            key = "stream.ended_at_gate" if reached else "stream.ended_early"
            raise CheckFailed(say(key, status=result.returncode), seen=ctx.evidence(result))
        if not reached:
            raise CheckFailed(say("stream.no_request", seconds=WAIT_SECONDS), seen=ctx.evidence(result))
        flushes = _screen_flushes(ctx, first)  # which side of the screen holds the piece back
        key = {False: "stream.not_flushed", True: "stream.held_before_screen"}.get(flushes, "stream.not_streamed")
        raise CheckFailed(say(key, seconds=WAIT_SECONDS), expected=repr(first), seen=repr(shown))
    if result.returncode != 0 or not result.stdout.startswith(text):
        seen = short(repr(result.stdout), len(repr(text)) + 20) if result.returncode == 0 else ctx.evidence(result)
        raise CheckFailed(say("stream.rest_missing", status=result.returncode), expected=repr(text), seen=seen)


def _screen_flushes(ctx, text: str) -> bool | None:
    """Whether the lab's Screen.show, given one TextDelta of `text`, writes it and flushes after
    (harnesses/screen.py, on streams that note each write and flush); None if it cannot tell."""
    try:
        probe = ctx.harness_json("screen", {"flush_probe": text}, calls="Screen.show", label="flush-probe")
    except CheckFailed:
        return None
    probe = probe.get("flush_probe") if isinstance(probe.get("flush_probe"), dict) else {}
    return probe.get("flushed") if probe.get("wrote") is True else None


def test_no_doubled_text(ctx):
    """The reply is printed once: stdout holds the streamed text and one newline, also when the reply asks for a tool as well, and in a REPL and on a terminal's screen every reply appears exactly once."""
    say = ctx.say
    rng = ctx.rng("no-doubled-text")
    name = rng.choice(ASCII_WORDS).title() + rng.choice(CJK_WORDS) + rng.choice(EMOJI)
    expected = f"Nice to meet you, {name}."
    result = ctx.run_agent(f"my name is {name}", cwd=ctx.workspace("no-doubled-text"))
    ctx.expect_ok(result)
    if result.stdout != expected + "\n":
        times = result.stdout.count(expected)
        key = "doubled.twice" if times > 1 else "doubled.once_not_exact" if times == 1 else "doubled.missing"
        raise CheckFailed(say(key, times=times, command=result.short_command()), expected=repr(expected + "\n"),
                          seen=repr(result.stdout))
    path = f"{rng.choice(ASCII_WORDS)}/{rng.choice(CJK_WORDS)}{rng.choice(EMOJI)}.py"
    expected = f"I will read {path}."  # the mock's text before its read_file call
    asking = ctx.run_agent(f"read {path}", cwd=ctx.workspace("no-doubled-text-call"))
    ctx.expect_ok(asking)
    if asking.stdout != expected + "\n":
        times = asking.stdout.count(expected)
        stray = [line for line in asking.stdout.split("\n") if line.strip() and line != expected]
        if times == 1 and stray:  # the text once, and a line that is not the model's beside it
            problem = say("doubled.with_calls_stray", command=asking.short_command(), line=short(repr(stray[0]), 120))
        elif times > 1:
            problem = say("doubled.with_calls", times=times, command=asking.short_command())
        else:
            problem = say("doubled.once_not_exact" if times else "doubled.missing")
        raise CheckFailed(problem, expected=repr(expected + "\n"), seen=repr(asking.stdout))
    other = rng.choice(ASCII_WORDS).title() + rng.choice(EMOJI)
    replies = [f"Nice to meet you, {other}.", f"Your name is {other}."]
    repl = ctx.run_agent(cwd=ctx.workspace("no-doubled-text-repl"),
                         input=f"my name is {other}\nwhat is my name?\n/exit\n")
    ctx.expect_ok(repl)
    for reply in replies:
        if repl.stdout.count(reply) != 1 or repl.stdout.count(reply + "\n") != 1:
            raise CheckFailed(say("doubled.repl", reply=reply, times=repl.stdout.count(reply)),
                              seen=short_end(repr(repl.stdout), 300))
    # ... and at a terminal, where a person reads it: the agent on a pseudo-terminal of its own
    # (both streams on the one screen, the terminal's CR LF read as LF)
    name = rng.choice(ASCII_WORDS).title() + rng.choice(CJK_WORDS)
    expected = f"Nice to meet you, {name}."
    with ctx.start_agent(f"my name is {name}", cwd=ctx.workspace("no-doubled-text-terminal"), tty=True) as child:
        shown = child.wait(30)
    ctx.expect_ok(shown)
    screen = shown.stdout.replace("\r\n", "\n")
    if screen.count(expected) != 1:
        raise CheckFailed(say("doubled.terminal", times=screen.count(expected)), expected=repr(expected + "\n"),
                          seen=short_end(repr(screen), 300))


# --------------------------------------------------------------------------- server-sent events

def _turn(rng, model: str, framing, comments: float, done_inside: bool = False,
          ends: bool = False) -> tuple[str, Reply]:
    """One streamed reply; `done_inside`: one of its deltas says "[DONE]" in its text; `ends`:
    the text starts and ends with white space (the history must keep it as streamed)."""
    text = padded(rng, reply_text(rng)) if ends else reply_text(rng)
    if done_inside:
        text, span = with_done_marker(rng, text)
        pieces = cut_keeping(rng, text, rng.randint(2, 6), span)
    else:
        pieces = cut(rng, text, rng.randint(2, 6))
    reply = Reply(rng, model, framing, comments).role().text(pieces)
    return text, reply.finish().usage(*_usage(rng)).done()


def _marked(rng, turns: int) -> list[bool]:
    """Which turns have an edge (a "[DONE]" inside a delta's text, white space at the reply's
    ends): one always, the others at random."""
    always = rng.randrange(turns)
    return [k == always or rng.random() < 0.5 for k in range(turns)]


def test_sse_framing(ctx):
    """Generated streams with keep-alive comments (between events and between the data: lines of one event), CRLF line ends, no space after data:, payloads over several data: lines, "[DONE]" inside a delta's text and white space at a reply's ends: the reply the agent keeps is exactly the text that was sent."""
    rng = ctx.rng("sse-framing")
    model = model_name(ctx, "sse-framing")
    kinds = [(ctx.say("what.crlf_stream"), lambda k: ("\r\n", False, False), 0.5),
             (ctx.say("what.multiline_stream"), lambda k: ("\n", True, True), 0.5),
             (ctx.say("what.mixed_stream"), every_feature(rng, 12), 0.6)]
    turns = [(what, *_turn(rng, model, framing, comments, done, ends))
             for (what, framing, comments), done, ends in zip(kinds, _marked(rng, len(kinds)),
                                                              _marked(rng, len(kinds)))]
    conversation = converse(ctx, "sse-framing", [reply_stream(reply.stream) for _, _, reply in turns])
    expect_texts(ctx, conversation, [(what, text) for what, text, _ in turns], "framing")


def test_sse_split_anywhere(ctx):
    """The same kind of stream, its bytes split into writes anywhere (inside an event, between CR and LF, inside a UTF-8 character, one byte at a time): the reply the agent keeps is exact."""
    rng = ctx.rng("sse-split-anywhere")
    model = model_name(ctx, "sse-split-anywhere")
    turns = []
    ways = ("what.split_per_event", "what.split_awkward", "what.split_byte")
    for way, done, ends in zip(ways, _marked(rng, len(ways)), _marked(rng, len(ways))):
        what = ctx.say(way)
        # One byte per write, and no comment between events: each CRLF event is followed at
        # once by another event, so a reader that mends line ends per chunk runs two into one.
        text, reply = _turn(rng, model, every_feature(rng, 10), 0.0 if way == "what.split_byte" else 0.5, done, ends)
        data = reply.stream.to_bytes()
        if way == "what.split_awkward":
            reply.stream.split_at(*cut_points(rng, data, rng.randint(10, 25)))
        elif way == "what.split_byte":
            reply.stream.split_at(*range(1, len(data)))
        turns.append((what, text, reply))
    conversation = converse(ctx, "sse-split-anywhere", [reply_stream(reply.stream) for _, _, reply in turns])
    result = conversation.result
    if result.returncode != 0:
        raise CheckFailed(ctx.say("wire.repl_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    try:
        expect_texts(ctx, conversation, [(what, text) for what, text, _ in turns[:1]], "framing", whole=False)
    except CheckFailed as failed:  # not a matter of splits: the framing itself goes wrong
        raise CheckFailed(ctx.say("split.even_whole", why=failed.message), expected=failed.expected,
                          seen=failed.seen) from None
    expect_texts(ctx, conversation, [(what, text) for what, text, _ in turns], "split")


def test_stream_cut(ctx):
    """A stream that ends without [DONE] (after an event, or inside one) or breaks off gives one line saying the reply was cut and exit status 1."""
    say = ctx.say
    rng = ctx.rng("stream-cut")
    model = model_name(ctx, "stream-cut")
    cases = cut_cases(rng, model, _usage(rng))
    results = one_shots(ctx, "stream-cut", [reply_stream(reply.stream) for _, reply, _ in cases])
    for (what, _, expected), result in zip(cases, results):
        what = say(what)
        errors = error_lines(result.stderr)
        if "Traceback" in result.stderr:
            raise CheckFailed(say("cut.crashed", what=what), seen=ctx.evidence(result))
        if expected is None:
            if result.returncode != 0 or errors:
                raise CheckFailed(say("cut.clean_refused", what=what, status=result.returncode),
                                  seen=ctx.evidence(result))
            continue
        if result.returncode != 1 or len(errors) != 1 or errors[0][0] != "gateway":
            raise CheckFailed(say("cut.not_one_line", what=what, status=result.returncode, count=len(errors)),
                              seen=ctx.evidence(result))
        said = errors[0][1]
        if (expected == "cut" and not CUT_WORDS.search(said)) or (expected != "cut" and expected not in said):
            key = "cut.not_said" if expected == "cut" else "cut.error_not_named"
            raise CheckFailed(say(key, what=what, message=expected), seen=f"error (gateway): {said}")


# --------------------------------------------------------------------------- tool calls

def test_one_call_merged(ctx):
    """One tool call streamed in fragments (the first with the id and the name, arguments cut anywhere, continuations with an empty id) merges into exactly its id, name and arguments."""
    cases = one_call_cases(ctx.rng("one-call-merged"))
    for (what, expected, _), answer in zip(cases, merged(ctx, [chunks for _, _, chunks in cases])):
        what = ctx.say(what)
        problem = ctx.harness_problem(answer, "merge_chunk", on=what)
        if problem:
            raise problem
        calls = answer.get("calls") or []
        if len(calls) != 1:
            raise CheckFailed(ctx.say("merge.count", what=what, count=len(calls)),
                              seen=json.dumps(calls, ensure_ascii=False))
        problem = call_problem(ctx.say, what, expected, calls[0])
        if problem:
            raise problem


def test_two_calls_interleaved(ctx):
    """Two tool calls whose fragments interleave (index 0, 1, 0, 1; in a second reply one call after the other, as OpenAI streams them; continuations with "id": "") are both shown with their exact names and arguments, in index order, and the next request carries both with their ids."""
    say = ctx.say
    rng = ctx.rng("two-calls-interleaved")
    model = model_name(ctx, "two-calls-interleaved")
    replies, turns = [], []
    # The first reply interleaves the calls' fragments (0, 1, 0, 1): kept on purpose, as the
    # robustness case of this check about assembling by index. The second streams them one call
    # after the other, as OpenAI does.
    for together, suffix in ((True, ""), (False, "_in_turn")):
        calls = _two_calls(rng)
        reply = Reply(rng, model).role().text(cut(rng, reply_text(rng, (3, 6)), 2))
        started: set[int] = set()
        for index, part in interleaved(rng, calls, together):
            opens = index not in started
            started.add(index)
            reply.fragment(index, part, id=calls[index][0] if opens else None,
                           name=calls[index][1] if opens else None)
        reply.finish("tool_calls").usage(*_usage(rng)).done()
        replies.append(reply_stream(reply.stream))
        turns.append((calls, suffix))
    conversation = converse(ctx, "two-calls-interleaved", replies)
    result = conversation.result
    if result.returncode != 0 or error_lines(result.stderr):
        raise CheckFailed(say("wire.repl_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    shown = call_lines(result.stderr)
    for turn, (calls, suffix) in enumerate(turns):
        expected = [f"{name}({json.dumps(args, ensure_ascii=False)})" for _, name, args in calls]
        seen = [f"{name}({args})" for name, args in shown[2 * turn:2 * turn + 2]]
        mine = shown[2 * turn:2 * turn + 2]
        if len(mine) != 2 or (turn and len(shown) != 4) or \
                any(_shown_as(line) != (name, args) for line, (_, name, args) in zip(mine, calls)):
            raise CheckFailed(say("calls.shown_wrong" + suffix, count=len(shown)),
                              expected=say("brief.then").join(expected),
                              seen=say("brief.then").join(seen) or say("brief.no_call"))
        state, message = conversation.reply_of(turn)
        sent = [(c.get("id"), (c.get("function") or {}).get("name")) for c in (message or {}).get("tool_calls")
                or []] if state == "ok" else []
        if sent != [(call_id_, name) for call_id_, name, _ in calls]:
            raise CheckFailed(say("calls.history_wrong" + suffix), expected=[(i, n) for i, n, _ in calls], seen=sent)
        answered = [m.get("tool_call_id") for m in conversation.tool_results_of(turn)]
        if answered != [call_id_ for call_id_, _, _ in calls]:
            raise CheckFailed(say("calls.results_wrong" + suffix), expected=[i for i, _, _ in calls], seen=answered)


def _two_calls(rng) -> list[tuple[str, str, dict]]:
    """Two calls (id, name, args) with different ids and names; sorted by id they come out backwards."""
    ids = sorted({call_id(rng) for _ in range(2)}, reverse=True)
    while len(ids) < 2:
        ids = sorted({*ids, call_id(rng)}, reverse=True)
    names = [tool_name(rng), tool_name(rng)]
    while names[1] == names[0]:
        names[1] = tool_name(rng)
    return [(ids[n], names[n], tool_args(rng)) for n in range(2)]


def _shown_as(line: tuple[str, str]) -> tuple[str, object]:
    name, args = line
    try:
        return name, json.loads(args)
    except ValueError:
        return name, args


def test_usage_reported(ctx):
    """The usage chunk (choices: []) becomes one tokens line with the server's counts, before the reply's tool call is shown."""
    say = ctx.say
    rng = ctx.rng("usage-reported")
    model = model_name(ctx, "usage-reported")
    counts = _usage(rng)
    call = (call_id(rng), tool_name(rng), tool_args(rng))
    with_call = Reply(rng, model).role().text(cut(rng, reply_text(rng), 3))
    parts = cut(rng, json.dumps(call[2]), rng.randint(2, 4))
    with_call.fragment(0, parts[0], id=call[0], name=call[1])
    for part in parts[1:]:
        with_call.fragment(0, part)
    with_call.finish("tool_calls").usage(*counts).done()
    without = Reply(rng, model).role().text(cut(rng, reply_text(rng), 3)).finish().done()
    first, second = one_shots(ctx, "usage-reported", [reply_stream(with_call.stream), reply_stream(without.stream)])
    for result, what in ((first, say("what.with_usage")), (second, say("what.without_usage"))):
        if result.returncode != 0 or error_lines(result.stderr):
            raise CheckFailed(say("usage.failed", what=what, status=result.returncode), seen=ctx.evidence(result))
    seen = tokens_lines(first.stderr)
    if seen != [counts]:
        raise CheckFailed(say("usage.counts_wrong", prompt=counts[0], completion=counts[1], count=len(seen)),
                          expected=f"  tokens: {counts[0]} in, {counts[1]} out",
                          seen="; ".join(f"tokens: {a} in, {b} out" for a, b in seen) or say("brief.no_tokens_line"))
    order = [kind for kind in status_kinds(first.stderr) if kind in ("tokens", "call")]
    if order != ["tokens", "call"]:
        raise CheckFailed(say("usage.order_wrong", seen=", ".join(order) or say("brief.neither")),
                          expected="tokens, call", seen=", ".join(order) or say("brief.neither"))
    estimated = tokens_lines(second.stderr)
    if len(estimated) != 1 or min(estimated[0]) <= 0:
        raise CheckFailed(say("usage.no_estimate", count=len(estimated)), seen=short_end(second.stderr.strip(), 300))


# --------------------------------------------------------------------------- the two layers

def test_layers_apart(ctx):
    """The screen works from agent events alone (the gateway package cannot even be imported): fed a scripted sequence of them, it prints exactly the expected text on stdout and lines on stderr, never one glued to the model's text."""
    say = ctx.say
    events = script(ctx.rng("layers-apart"))
    answer = ctx.harness_json("screen", {"events": events}, calls="Screen.show", on=described(events), label="events")
    if "import" in answer:
        raise CheckFailed(say("layers.needs_gateway", error=answer["import"]))
    for mode, together in (("apart", False), ("together", True)):
        expected, seen = rendered(events, together), answer.get(mode) or {}
        for stream in ("out", "err"):
            if seen.get(stream) != expected[stream]:
                line, want, got = first_difference(expected[stream], str(seen.get(stream)))
                key = f"layers.{stream}_{mode}"
                raise CheckFailed(say(key, line=line, events=described(events)), expected=repr(want), seen=repr(got))
    if answer["apart"].get("errors") != rendered(events, False)["errors"]:
        raise CheckFailed(say("layers.errors_count", expected=rendered(events, False)["errors"],
                              seen=answer["apart"].get("errors")))
