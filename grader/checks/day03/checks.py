"""Day 03 checks: read-only tools and the tool loop - model, tools, model - and honest truncation.

The contract is shared/days/day-03.md. How the checks get their inputs:

* answers-from-file runs the lab's agent with the mock in a workspace whose calc.py and
  one more file were generated for this run: the replies can only quote them if the
  tool's result went back to the model;
* every-call-answered and round-cap run the agent against the grader's fake model
  server (wire.py), which plays tool calls drawn for this run (ids, tools, files) and
  records every request: the history the agent sends after each round is compared
  message by message, and a chain a real API would refuse is refused;
* truncation-declared, tail-kept, path-escape-refused, bad-args-become-result,
  read-tools-marked and list-and-grep call the lab's tools one call at a time through
  the provided run_call in a child (harnesses/tools.py), with generated files, texts,
  limits, escape paths and broken calls; the loop itself is not involved, so a mistake
  in it cannot show up there.

Student code runs only in children. Wording lives in messages.toml.
"""

from __future__ import annotations

import json
import os
import re

from grader.checkkit import CheckFailed, short, short_end
from grader.checkkit.draws import CJK_WORDS, VOICES
from grader.checkkit.fakeserver import FakeModelServer
from grader.checkkit.links import symlink

from . import inputs
from .cuts import NOTE_ROOM, at_the_ends, declares, room_needed, whole_lines
from .inputs import token, words
from .toolbox import broke, call_op, run_ops, tool_message, write_files
from .wire import call_id, calls_reply, error_lines, last_user, model_name, provider_calls, serve, shape, text_reply

PROMPT = "you > "
DEFAULT_CAP = 8        # the loop's MAX_ROUNDS when the lab's loop.py does not say
DEFAULT_LIMIT = 8000   # the registry's MAX_RESULT_CHARS when the lab's truncate.py does not say


def _constant(ctx, relative: str, name: str, default: int) -> int:
    """A module constant of the lab's provided code, read as text (the lab is never imported here)."""
    try:
        text = (ctx.lab / relative).read_text(encoding="utf-8")
    except OSError:
        return default
    match = re.search(rf"^{name}\s*=\s*(\d+)", text, re.MULTILINE)
    return int(match.group(1)) if match else default


def _answers(stdout: str) -> list[str]:
    return [part.strip() for part in stdout.split(PROMPT)[1:]]


# --------------------------------------------------------------------------- E1: the loop

def test_answers_from_file(ctx):
    """With the mock, "what does divide do" and "read FILE" are answered from the files of this run's workspace: the replies quote divide's first and last line and count FILE's lines and definitions, after one tool round each."""
    say = ctx.say
    rng = ctx.rng("answers-from-file")
    workspace = ctx.workspace("answers-from-file")
    calc, define, last = inputs.calc_module(rng)
    name = inputs.file_name(rng, (".py",))
    module, names = inputs.python_module(rng)
    write_files(workspace, {"calc.py": calc, name: module})
    lines = ["what does divide do", f"read {name}"]
    result = ctx.run_agent(cwd=workspace, input="".join(line + "\n" for line in lines) + "/exit\n")
    ctx.expect_ok(result, say("agent.failed", command=result.short_command(), status=result.returncode))
    expected = [f"I will read calc.py.\ndivide is `{define}` and it ends with `{last}`.",
                f"I will read {name}.\n{name} has {len(module.splitlines())} lines and defines {', '.join(names)}."]
    said = _answers(result.stdout)
    for line, want, got in zip(lines, expected, said + [""] * len(lines)):
        if got == want:
            continue
        if got == want.split("\n")[0]:
            raise CheckFailed(say("file.stopped", line=line), expected=want, seen=got)
        raise CheckFailed(say("file.not_quoted", line=line), expected=want, seen=got or say("brief.nothing"))


def test_every_call_answered(ctx):
    """A reply with several tool calls (a repeated one and one with broken arguments among them): every call is run, the ones after the broken one too, and the next request carries one tool message per call, in the order of the calls, each with its call's id and its own result (an `error:` result for the broken one)."""
    say = ctx.say
    rng = ctx.rng("every-call-answered")
    model = model_name(rng)
    workspace = ctx.workspace("every-call-answered")
    files = {inputs.file_name(rng): inputs.text_file(rng) for _ in range(rng.randint(2, 3))}
    folder = rng.choice(CJK_WORDS) + "_" + token(rng, 4)
    inner = {f"{folder}/{inputs.file_name(rng)}": inputs.text_file(rng, (1, 3)) for _ in range(rng.randint(1, 3))}
    write_files(workspace, {**files, **inner})
    calls = [("read_file", {"path": path}, text) for path, text in files.items()]
    calls.append(("list_dir", {"path": folder}, "\n".join(sorted(p.split("/", 1)[1] for p in inner))))
    rng.shuffle(calls)
    again = rng.choice([c for c in calls if c[0] == "read_file"])
    calls.insert(rng.randrange(calls.index(again) + 1, len(calls) + 1), again)  # the model asks twice
    path = rng.choice(sorted(files))  # arguments that are not JSON: the provided code answers `error: ...`
    raw = rng.choice(['{"path": "%s"', '{"path": %s}', "{'path': '%s'}", '{"path": "%s",}']) % path
    calls.insert(rng.randrange(len(calls)), ("read_file", raw, None))  # never last: calls after an error run too
    if calls[0][0] == "list_dir":  # a read_file comes first, so calls run sorted by tool name come out of order
        calls[0], calls[1] = calls[1], calls[0]
    ids: list[str] = []
    while len(ids) < len(calls):
        new = call_id(rng)
        if new not in ids:
            ids.append(new)
    if ids == sorted(ids):
        ids.reverse()  # the order of the calls is never the order of their ids
    final = words(rng)
    script = [calls_reply(rng, model, [(i, n, a) for i, (n, a, _) in zip(ids, calls)]), text_reply(rng, model, final)]
    result, requests, problems = serve(ctx, workspace, FakeModelServer(script, enforce_chain=True), model,
                                       prompt=words(rng, (3, 6)))
    asked = say("brief.then").join(f"{n}({a if isinstance(a, str) else json.dumps(a, ensure_ascii=False)}) [{i}]"
                                   for i, (n, a, _) in zip(ids, calls))
    if len(requests) < 2:
        raise CheckFailed(say("calls.no_second", count=len(calls)), expected=asked, seen=ctx.evidence(result))
    messages = requests[1].messages
    at = next((k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), None)
    if at is None or [c[0] for c in provider_calls(messages[at])] != ids:
        raise CheckFailed(say("calls.assistant_lost"), expected=asked, seen=shape(messages, say))
    answers = messages[at + 1:]
    wanted = [(i, text) for i, (_, _, text) in zip(ids, calls)]
    seen = [(m.get("tool_call_id"), m.get("content")) if isinstance(m, dict) and m.get("role") == "tool"
            else (f"({m.get('role') if isinstance(m, dict) else '?'})", None) for m in answers]
    if [i for i, _ in seen] != [i for i, _ in wanted]:
        raise CheckFailed(say("calls.ids_wrong", count=len(calls)), expected=", ".join(i for i, _ in wanted),
                          seen=", ".join(str(i) for i, _ in seen) or say("brief.no_tool_message"))
    for k, ((i, want), (_, got)) in enumerate(zip(wanted, seen)):
        name, args, _ = calls[k]
        call = f"{name}({args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)})"
        if want is None:
            if not isinstance(got, str) or not got.startswith("error:"):
                raise CheckFailed(say("calls.error_lost", index=k + 1, id=i, call=call), expected="error: ...",
                                  seen=repr(got))
            continue
        if got != want:
            raise CheckFailed(say("calls.result_wrong", index=k + 1, id=i, call=call), expected=repr(want),
                              seen=repr(got))
    if len(requests) != 2 or problems or result.returncode != 0:
        raise CheckFailed(say("calls.did_not_end", count=len(requests)),
                          seen="; ".join(problems) or ctx.evidence(result))
    if not result.stdout.rstrip("\n").endswith(final):
        raise CheckFailed(say("calls.final_missing"), expected=final, seen=short_end(result.stdout, 200))


def test_round_cap(ctx):
    """A model that never stops asking for tools, one to three calls a round: the turn ends after the loop's cap of rounds (rounds, not calls) with one line saying so, every call of every round answered, and the REPL goes on with a history a real API accepts."""
    say = ctx.say
    rng = ctx.rng("round-cap")
    cap = _constant(ctx, "mca/agent/loop.py", "MAX_ROUNDS", DEFAULT_CAP)
    model = model_name(rng)
    workspace = ctx.workspace("round-cap")
    loop_line, next_line, final = words(rng, (3, 6)) + " 1", words(rng, (3, 6)) + " 2", words(rng)
    made: list[str] = []
    rounds_asked: list[int] = []
    # calls per round: the first round asks for several, so a cap that counts calls (or tool messages)
    # instead of rounds always stops early
    per_round = [rng.randint(2, 3)] + [rng.randint(1, 3) for _ in range(cap - 1)]
    choices = [("list_dir", {"path": "."}), ("read_file", {"path": "calc.py"}), ("grep", {"pattern": "def "})]

    def answer(request):
        if last_user(request) != loop_line:
            return text_reply(rng_reply, model, final)
        rounds_asked.append(len(rounds_asked))
        asked = len(rounds_asked) - 1
        wanted = rng_reply.sample(choices, per_round[asked] if asked < len(per_round) else 1)
        calls = []
        for name, args in wanted:
            made.append(f"{call_id(rng_reply)}_{len(made)}")
            calls.append((made[-1], name, args))
        return calls_reply(rng_reply, model, calls)

    rng_reply = ctx.rng("round-cap/replies")
    server = FakeModelServer(model=answer, enforce_chain=True)
    result, requests, problems = serve(ctx, workspace, server, model, lines=[loop_line, next_line, "/exit"])
    looping = [r for r in requests if last_user(r) == loop_line]
    loop_errors = [text for where, text in error_lines(result.stderr) if where == "loop"]
    if len(looping) != cap:
        raise CheckFailed(say("cap.rounds", cap=cap, count=len(looping)), expected=say("brief.requests", count=cap),
                          seen=say("brief.requests", count=len(looping)) + "; " + ctx.evidence(result))
    if len(loop_errors) != 1 or str(cap) not in loop_errors[0]:
        raise CheckFailed(say("cap.no_line", cap=cap, count=len(loop_errors)),
                          seen=" | ".join(loop_errors) or short_end(result.stderr, 300))
    after = [r for r in requests if last_user(r) == next_line]
    if problems or not after:
        raise CheckFailed(say("cap.chain_broken"), seen="; ".join(problems) or ctx.evidence(result))
    messages = after[0].messages
    users = [k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"]
    turn = messages[users[0] + 1:users[-1]] if len(users) >= 2 else []
    seen_ids = [c[0] for m in turn if isinstance(m, dict) and m.get("role") == "assistant"
                for c in provider_calls(m)]
    rounds = [m for m in turn if isinstance(m, dict) and m.get("role") == "assistant"]
    answered = [m.get("tool_call_id") for m in turn if isinstance(m, dict) and m.get("role") == "tool"]
    if len(rounds) != cap or seen_ids != made or sorted(answered) != sorted(made):
        raise CheckFailed(say("cap.history", cap=cap, calls=len(made)),
                          expected=say("brief.rounds_answered", rounds=cap, results=len(made)),
                          seen=shape(turn, say))
    if result.returncode != 0 or final not in result.stdout:
        raise CheckFailed(say("cap.repl_stopped", status=result.returncode), expected=final,
                          seen=ctx.evidence(result))


# --------------------------------------------------------------------------- E2: truncation

def _limits_and_lengths(rng) -> list[tuple[int, int]]:
    """(limit, length) pairs around the limit: under, at, one over, a little over, far over."""
    pairs = []
    for _ in range(2):
        limit = rng.randint(200, 3000)
        pairs += [(limit, limit - rng.randint(1, 9)), (limit, limit), (limit, limit + 1),
                  (limit, limit + rng.randint(2, 40)), (limit, limit * rng.randint(3, 30) + rng.randint(0, 99))]
    rng.shuffle(pairs)
    return pairs


def _big_file(ctx, rng, label: str, text: str):
    """A workspace with one generated big file; (workdir, its name)."""
    workdir = ctx.workspace(label)
    name = inputs.file_name(rng, (".log", ".txt"))
    write_files(workdir, {name: text})
    return workdir.resolve(), name


def _cut_problem(say, text: str, limit: int, cut: object, flag: object, what: str) -> CheckFailed | None:
    """What is wrong with one truncate answer for `text` and `limit`, or None."""
    if len(text) <= limit:
        if cut != text or flag is not False:
            return CheckFailed(say("cut.short_changed", what=what, length=len(text), limit=limit),
                               expected=say("brief.unchanged"),
                               seen=say("brief.chars_flag", count=len(str(cut)), flag=repr(flag)))
        return None
    if not isinstance(cut, str) or len(cut) > limit:
        return CheckFailed(say("cut.too_long", what=what, length=len(text), limit=limit),
                           expected=say("brief.at_most", limit=limit), seen=say("brief.chars", count=len(str(cut))))
    if flag is not True:
        return CheckFailed(say("cut.flag", what=what, length=len(text), limit=limit), expected="True", seen=repr(flag))
    if not declares(text, cut):
        return CheckFailed(say("cut.undeclared", what=what, length=len(text), limit=limit),
                           expected=say("brief.note", length=len(text)),
                           seen=repr(_middle(say, text, cut)))
    head, tail = at_the_ends(text, cut)
    if not text[:head].strip() or not text[len(text) - tail:].strip():
        # the note first or last (a line break it ends with is no piece of the text), the two ends
        # glued together, or one of them dropped
        return CheckFailed(say("cut.note_misplaced", what=what, length=len(text), limit=limit),
                           expected=say("brief.start_note_end"),
                           seen=say("brief.ends_kept", head=head, tail=tail, start=short(repr(cut), 60)))
    if head + tail < room_needed(text, limit):
        return CheckFailed(say("cut.room_unused", what=what, length=len(text), limit=limit, note=NOTE_ROOM),
                           expected=say("brief.at_least", count=room_needed(text, limit)),
                           seen=say("brief.kept", head=head, tail=tail))
    return None


def _middle(say, text: str, cut: str) -> str:
    """The part of a result that is not the original's start or end: where a note would be."""
    from .cuts import kept_of
    kept = kept_of(text, cut)
    middle = cut[kept.head:len(cut) - kept.tail] if kept.head + kept.tail <= len(cut) else ""
    return middle or say("brief.nothing_between", head=kept.head, tail=kept.tail)


def test_truncation_declared(ctx):
    """A result longer than the limit is cut to at most the limit, laid out as its start, a note saying how much was cut of how much, its end, and keeps as much of the two ends as the room leaves (a generated 200 KB file read through the registry, and texts just under, at, just over and far over random limits of 200 characters and more)."""
    say = ctx.say
    rng = ctx.rng("truncation-declared")
    pairs = _limits_and_lengths(rng)
    # in every voice real output comes in (plain English, one script, mixed): nothing about the
    # text tells a generated input from a real one
    # Each voice counted apart among the texts that must be cut and those that fit, so every
    # voice has texts over the limit in every draw (not only where the shuffle puts them).
    over = [length > limit for limit, length in pairs]
    texts = [inputs.text_of_length(rng, length, VOICES[over[:n].count(over[n]) % len(VOICES)])
             for n, (_, length) in enumerate(pairs)]
    big = inputs.text_of_length(rng, 200_000 + rng.randint(0, 5000), rng.choice(VOICES))
    workdir, name = _big_file(ctx, rng, "truncation-declared", big)
    ops = [{"op": "truncate", "text": text, "limit": limit} for text, (limit, _) in zip(texts, pairs)]
    ops.append(call_op("call_big_" + token(rng, 6), "read_file", {"path": name}))
    answers = run_ops(ctx, "truncation-declared", workdir, ops)
    for text, (limit, _), answer in zip(texts, pairs, answers):
        what = say("cut.direct", length=len(text), limit=limit)
        if broke(answer) or "shape" in answer:
            raise CheckFailed(say("cut.raised", what=what, error=broke(answer) or answer["shape"]))
        problem = _cut_problem(say, text, limit, answer.get("text"), answer.get("truncated"), what)
        if problem:
            raise problem
    limit = _constant(ctx, "mca/tools/truncate.py", "MAX_RESULT_CHARS", DEFAULT_LIMIT)
    answer = answers[-1]
    what = say("cut.file", name=name, length=len(big))
    message, why = tool_message(answer, say) if not broke(answer) else (None, broke(answer))
    if message is None:
        raise CheckFailed(say("cut.raised", what=what, error=why))
    if str(message.get("content")).startswith("error:"):
        raise CheckFailed(say("cut.refused", what=what), seen=short(str(message.get("content")), 200))
    if message.get("content") == big:  # the direct calls above were cut: the registry never called truncate
        raise CheckFailed(say("cut.registry_whole", what=what, limit=limit), expected=say("brief.at_most", limit=limit),
                          seen=say("brief.chars", count=len(big)))
    problem = _cut_problem(say, big, limit, message.get("content"), (answer.get("finished") or {}).get("truncated"),
                           what)
    if problem:
        raise problem


def _long_line(rng, limit: int) -> int | None:
    """How long the last line of an output cut to `limit` is drawn: between an eighth and a fifth
    of the limit from a limit of 600 on (an honest tail of any split holds it), else short."""
    return rng.randint(max(41, limit // 8), limit // 5) if limit >= 600 else None


def test_tail_kept(ctx):
    """A long output cut to the limit keeps both ends: its first line and its last line (an error message, short or up to a fifth of the limit long) are whole lines of the result (generated logs cut at random limits, and a 200 KB log read through the registry)."""
    say = ctx.say
    rng = ctx.rng("tail-kept")
    cases = []
    for limit in (rng.randint(200, 3000), rng.randint(200, 3000), rng.randint(800, 3000)):
        for size in (limit + rng.randint(1, 30), limit * rng.randint(2, 40)):
            cases.append((limit, *inputs.long_output(rng, size, _long_line(rng, limit), VOICES[len(cases) % len(VOICES)])))
    limit = _constant(ctx, "mca/tools/truncate.py", "MAX_RESULT_CHARS", DEFAULT_LIMIT)
    big, first, last = inputs.long_output(rng, 200_000 + rng.randint(0, 5000), _long_line(rng, limit),
                                          rng.choice(VOICES))
    workdir, name = _big_file(ctx, rng, "tail-kept", big)
    ops = [{"op": "truncate", "text": text, "limit": limit} for limit, text, _, _ in cases]
    ops.append(call_op("call_log_" + token(rng, 6), "read_file", {"path": name}))
    answers = run_ops(ctx, "tail-kept", workdir, ops)
    results = []
    for (limit, text, first_, last_), answer in zip(cases, answers):
        what = say("cut.direct", length=len(text), limit=limit)
        if broke(answer) or "shape" in answer:
            raise CheckFailed(say("cut.raised", what=what, error=broke(answer) or answer["shape"]))
        results.append((what, text, answer.get("text"), first_, last_))
    what = say("cut.file", name=name, length=len(big))
    message, why = tool_message(answers[-1], say) if not broke(answers[-1]) else (None, broke(answers[-1]))
    if message is None:
        raise CheckFailed(say("cut.raised", what=what, error=why))
    if str(message.get("content")).startswith("error:"):
        raise CheckFailed(say("cut.refused", what=what), seen=short(str(message.get("content")), 200))
    if message.get("content") == big:  # the registry never called truncate
        raise CheckFailed(say("cut.registry_whole", what=what, limit=limit), expected=say("brief.at_most", limit=limit),
                          seen=say("brief.chars", count=len(big)))
    results.append((what, big, message.get("content"), first, last))
    for what, text, cut, first_, last_ in results:
        lines = whole_lines(cut) if isinstance(cut, str) else []
        if last_ not in lines:
            raise CheckFailed(say("tail.lost", what=what), expected=repr(last_),
                              seen=short_end(repr(cut), 120) if isinstance(cut, str) else repr(cut))
        if first_ not in lines:
            raise CheckFailed(say("tail.head_lost", what=what), expected=repr(first_),
                              seen=short(repr(cut), 120) if isinstance(cut, str) else repr(cut))


# --------------------------------------------------------------------------- E3: paths

def _escape_scene(ctx, rng):
    """A workdir with files and links inside, and secrets beside it and elsewhere; the calls to make.

    Returns (the workdir as the tools get it: a symlink to the real one, a file inside that
    holds the needle, refused, allowed, secrets): refused is a list of (what, tool, args),
    allowed of (what, tool, args, the content expected or None); secrets are texts no result
    may hold. Every file holds the same needle, so a grep that goes where it must not finds
    something to leak. Some paths out lead to nothing that exists: refused all the same.
    """
    root = ctx.tmp("path-escape-refused").resolve()
    tag = token(rng, 5)
    workdir = root / f"ws{rng.choice(CJK_WORDS)}"
    sibling = root / (workdir.name + "-" + tag)          # shares the workdir's name as a prefix
    elsewhere = root / f"outside_{rng.choice(CJK_WORDS)}_{tag}"
    needle = "needle" + inputs.letters(rng, 6)
    secrets = [f"SECRET {inputs.letters(rng, 10)} {rng.choice(CJK_WORDS)}" for _ in range(2)]
    inside = {inputs.file_name(rng, (".txt",)): f"{needle} {words(rng)}\n{words(rng)}\n",
              f"sub_{tag}/{inputs.file_name(rng, ('.md',))}": words(rng) + "\n",
              f"..{inputs.letters(rng, 4)}_notes.txt": words(rng) + "\n"}
    write_files(workdir, inside)
    write_files(sibling, {"secret.txt": f"{needle} {secrets[0]}\n"})
    write_files(elsewhere, {"secret.txt": f"{needle} {secrets[1]}\n"})
    plain, deep, dotted = list(inside)
    link_in, link_out, dir_out = f"link_{tag}", f"peek_{inputs.letters(rng, 4)}", f"door_{inputs.letters(rng, 4)}"
    symlink(workdir / link_in, workdir / plain)
    symlink(workdir / link_out, elsewhere / "secret.txt")
    symlink(workdir / dir_out, elsewhere, directory=True)
    symlink(workdir / deep.split("/")[0] / "deep_link.txt", sibling / "secret.txt")
    sub = deep.split("/")[0]
    via = root / f"here_{tag}"  # the workdir reached through a link, as a linked home or /tmp on macOS is
    symlink(via, workdir, directory=True)
    missing = f"gone_{inputs.letters(rng, 5)}"
    say = ctx.say
    refused = [
        (say("what.dotdot_missing"), "read_file", {"path": f"../{missing}.txt"}),
        (say("what.absolute_missing"), "list_dir", {"path": str(root / missing / inputs.letters(rng, 4))}),
        (say("what.climbs_to_nothing"), "grep",
         {"pattern": needle, "path": f"{sub}/../../{missing}/{inputs.file_name(rng)}"}),
        (say("what.dotdot"), "read_file", {"path": f"../{elsewhere.name}/secret.txt"}),
        (say("what.climbs_out"), "read_file", {"path": f"{sub}/../../{sibling.name}/secret.txt"}),
        (say("what.absolute_outside"), "read_file", {"path": str(elsewhere / "secret.txt")}),
        (say("what.prefix_sibling"), "read_file",
         {"path": str(sibling / "secret.txt")}),
        (say("what.link_out"), "read_file", {"path": link_out}),
        (say("what.under_linked_dir"), "read_file", {"path": f"{dir_out}/secret.txt"}),
        (say("what.deep_link_out"), "read_file", {"path": f"{sub}/deep_link.txt"}),
        (say("what.list_dotdot"), "list_dir", {"path": ".."}),
        (say("what.list_linked_dir"), "list_dir", {"path": dir_out}),
        (say("what.list_absolute_outside"), "list_dir", {"path": str(root)}),
        (say("what.grep_dotdot"), "grep", {"pattern": needle, "path": ".."}),
        (say("what.grep_linked_dir"), "grep", {"pattern": needle, "path": dir_out}),
        (say("what.grep_link_out"), "grep", {"pattern": needle, "path": link_out}),
    ]
    allowed = [
        (say("what.absolute_inside"), "read_file", {"path": str(workdir / plain)}, inside[plain]),
        (say("what.absolute_via_link"), "read_file", {"path": str(via / plain)}, inside[plain]),
        (say("what.dotdot_inside"), "read_file", {"path": f"{sub}/../{plain}"}, inside[plain]),
        (say("what.dotted_name"), "read_file", {"path": dotted}, inside[dotted]),
        (say("what.link_in"), "read_file", {"path": link_in}, inside[plain]),
        (say("what.dot_slash_sub"), "read_file", {"path": f"./{deep}"}, inside[deep]),
        (say("what.list_sub_dotdot"), "list_dir", {"path": f"{sub}/.."}, None),
        (say("what.grep_workdir"), "grep", {"pattern": needle, "path": "."},
         None),
    ]
    rng.shuffle(refused)
    return via, plain, refused, allowed, secrets


def test_path_escape_refused(ctx):
    """Every path that leaves the workdir - .., an absolute path, a directory whose name merely starts like the workdir's, a symlink or linked directory pointing out, a path out to nothing that exists - is refused by read_file, list_dir and grep with an error result naming the path, and nothing outside is read."""
    say = ctx.say
    rng = ctx.rng("path-escape-refused")
    workdir, plain, refused, allowed, secrets = _escape_scene(ctx, rng)
    cases = [(what, name, args, None) for what, name, args in refused] + allowed
    ops = [call_op(f"call_{k}_{token(rng, 5)}", name, args) for k, (_, name, args, _) in enumerate(cases)]
    answers = run_ops(ctx, "path-escape-refused", workdir, ops)
    for (what, name, args, expected), answer in zip(cases, answers):
        call = f"{name}({json.dumps(args, ensure_ascii=False)})"
        if broke(answer):
            raise CheckFailed(say("path.raised", what=what, call=call, error=broke(answer)))
        message, why = tool_message(answer, say)
        content = message.get("content") if message else None
        if not isinstance(content, str):
            raise CheckFailed(say("path.no_result", what=what, call=call, why=why or say("brief.no_content")))
        leaked = [s for s in secrets if s in content]
        if leaked:
            raise CheckFailed(say("path.leaked", what=what, call=call), expected=say("brief.nothing_outside"),
                              seen=short(repr(content), 200))
        refusal = content.startswith("error:")
        if any(args is a for _, _, a in refused):
            if not refusal or args["path"] not in content:
                raise CheckFailed(say("path.not_refused", what=what, call=call),
                                  expected=f"error: ... {args['path']} ...", seen=short(repr(content), 200))
            continue
        if refusal:
            raise CheckFailed(say("path.refused_inside", what=what, call=call), seen=short(repr(content), 200))
        if expected is not None and content != expected:
            raise CheckFailed(say("path.wrong_content", what=what, call=call), expected=repr(expected),
                              seen=short(repr(content), 200))
        if name == "grep" and not any(line.startswith(plain + ":") for line in content.split("\n")):
            raise CheckFailed(say("path.grep_lost", what=what, call=call, name=plain), seen=short(repr(content), 200))


# --------------------------------------------------------------------------- E4: bad calls

def _bad_calls(say, rng, good_file: str, good_text: str):
    """(what, op, the words the error must name or None for a good call, expected content)."""
    unknown = rng.choice(["delete_files", "summon", "write_all", "读取文件", "fetch_url"]) + "_" + token(rng, 4)
    wrong = rng.choice([7, 3.5, True, None, ["calc.py"], {"path": "calc.py"}])
    wrong_pattern = rng.choice([5, False, ["def"], None])
    bad_regex = rng.choice(["(", "[", "*", "+"]) + rng.choice(["def", "divide", "返回", "x"])
    broken = rng.choice(['{"path": "calc.py"', '{"path": calc.py}', "{'path': 'calc.py'}", '{"path": "calc.py",}',
                         '[{"path"'])
    cases = [
        (say("what.not_json"), "read_file", {"raw": broken}, ["JSON"]),
        (say("what.read_no_path"), "read_file", {"args": {}}, ["path"]),
        (say("what.grep_no_pattern"), "grep", {"args": {"path": "."}}, ["pattern"]),
        (say("what.read_wrong_path", value=json.dumps(wrong)), "read_file", {"args": {"path": wrong}}, ["path"]),
        (say("what.grep_wrong_pattern", value=json.dumps(wrong_pattern)), "grep", {"args": {"pattern": wrong_pattern}},
         ["pattern"]),
        (say("what.list_wrong_path", value=json.dumps(wrong)), "list_dir", {"args": {"path": wrong}}, ["path"]),
        (say("what.unknown_tool", name=unknown), unknown, {"args": {"path": good_file}}, [unknown]),
        # the tool's own refusals (a ToolError raised inside the tool, not by the registry's checks)
        (say("what.list_a_file", name=good_file), "list_dir", {"args": {"path": good_file}}, [good_file]),
        (say("what.grep_bad_regex", pattern=bad_regex), "grep", {"args": {"pattern": bad_regex}}, []),
    ]
    goods = [
        (say("what.good_read"), "read_file", {"args": {"path": good_file}}, None, good_text),
        (say("what.list_no_path"), "list_dir", {"args": {}}, None, None),
        (say("what.grep_no_path"), "grep", {"args": {"pattern": re.escape(good_text.split()[0])}}, None, None),
    ]
    cases = [(*c, None) for c in cases] + goods
    rng.shuffle(cases)
    return cases


def test_bad_args_become_result(ctx):
    """Broken calls - arguments that are not JSON, a missing argument, an argument of the wrong type, a tool that does not exist, a tool that refuses (a file listed as a folder, a pattern that is not a regular expression) - each come back as an `error:` result naming what was wrong, never an exception."""
    say = ctx.say
    rng = ctx.rng("bad-args-become-result")
    workdir = ctx.workspace("bad-args-become-result").resolve()
    good_file, good_text = inputs.file_name(rng, (".txt",)), inputs.text_file(rng)
    limit = _constant(ctx, "mca/tools/truncate.py", "MAX_RESULT_CHARS", DEFAULT_LIMIT)
    long_file, long_text = inputs.file_name(rng, (".log",)), inputs.text_of_length(rng, 3 * limit + rng.randint(1, 999))
    write_files(workdir, {good_file: good_text, long_file: long_text})
    cases = _bad_calls(say, rng, good_file, good_text)
    ops = []
    for k, (_, name, how, _, _) in enumerate(cases):
        ops.append(call_op(f"call_{token(rng, 6)}_{k}", name, how.get("args"), how.get("raw")))
    ops.append(call_op(f"call_{token(rng, 6)}_long", "read_file", {"path": long_file}))
    answers = run_ops(ctx, "bad-args-become-result", workdir, ops)
    _long_result_cut(ctx, answers[-1], say("what.long_read", name=long_file, length=len(long_text)), limit,
                     len(long_text))
    for (what, name, how, names, expected), answer, op in zip(cases, answers, ops):
        if broke(answer):
            raise CheckFailed(say("args.raised", what=what, error=broke(answer)))
        message, why = tool_message(answer, say)
        if message is None or message.get("tool_call_id") != op["id"] or message.get("role") != "tool":
            raise CheckFailed(say("args.no_message", what=what, why=why or json.dumps(message, ensure_ascii=False)))
        content = message.get("content")
        ok = (answer.get("finished") or {}).get("ok")
        if names is None:
            if not isinstance(content, str) or content.startswith("error:") or ok is not True:
                raise CheckFailed(say("args.good_refused", what=what), seen=short(repr(content), 200))
            if expected is not None and content != expected:
                raise CheckFailed(say("args.good_wrong", what=what), expected=repr(expected), seen=repr(content))
            continue
        if not isinstance(content, str) or not content.startswith("error:") or ok is not False:
            raise CheckFailed(say("args.not_error", what=what), expected="error: ... (ok False)",
                              seen=short(f"{content!r}", 200) + f" (ok {ok})")
        missing = [n for n in names if not re.search(rf"(?<!\w){re.escape(n)}(?!\w)", content)]
        if missing:
            raise CheckFailed(say("args.unnamed", what=what, name=missing[0]), seen=short(repr(content), 200))


def _long_result_cut(ctx, answer: dict, what: str, limit: int, length: int) -> None:
    """A good call whose text is three times the limit comes back cut (by truncate: how well it
    cuts is truncation-declared's matter), not whole: ToolRegistry.run passes every result on."""
    say = ctx.say
    if broke(answer):
        raise CheckFailed(say("args.raised", what=what, error=broke(answer)))
    message, why = tool_message(answer, say)
    content = message.get("content") if message else None
    if not isinstance(content, str) or content.startswith("error:"):
        raise CheckFailed(say("args.good_refused", what=what), seen=short(repr(content), 200) if message else why)
    if len(content) > 2 * limit:
        raise CheckFailed(say("args.long_uncut", what=what, limit=limit, count=len(content)),
                          expected=say("brief.at_most", limit=limit), seen=say("brief.chars", count=len(content)))


# --------------------------------------------------------------------------- provided: the tools

READ_TOOLS = ("read_file", "list_dir", "grep")


def test_read_tools_marked(ctx):
    """The registry offers read_file, list_dir and grep, each marked read_only (the flag day 5's gate trusts), with a schema naming its parameters."""
    say = ctx.say
    workdir = ctx.workspace("read-tools-marked").resolve()
    answer = run_ops(ctx, "read-tools-marked", workdir, [{"op": "tools"}])[0]
    if broke(answer):
        raise CheckFailed(say("marked.raised", error=broke(answer)))
    names = answer.get("names") or []
    if sorted(names) != sorted(READ_TOOLS):
        raise CheckFailed(say("marked.names"), expected=", ".join(READ_TOOLS), seen=", ".join(map(str, names)))
    for name in READ_TOOLS:
        if answer["marked"].get(name) is not True or answer["asked"].get(name) is not True:
            raise CheckFailed(say("marked.not_marked", name=name),
                              seen=f"read_only={answer['marked'].get(name)!r}, "
                                   f"is_read_only={answer['asked'].get(name)!r}")
    if answer.get("unknown") is not False:
        raise CheckFailed(say("marked.unknown"), seen=repr(answer.get("unknown")))
    schemas = {s.get("name"): s for s in answer.get("schemas") or [] if isinstance(s, dict)}
    needs = {"read_file": ["path"], "list_dir": [], "grep": ["pattern"]}
    for name, required in needs.items():
        parameters = (schemas.get(name) or {}).get("parameters") or {}
        if parameters.get("type") != "object" or sorted(parameters.get("required", [])) != required \
                or "path" not in (parameters.get("properties") or {}):
            raise CheckFailed(say("marked.schema", name=name, required=", ".join(required) or say("brief.nothing")),
                              seen=short(json.dumps(parameters, ensure_ascii=False), 200))


def _tree(rng):
    """Files at the top and in two levels of folders, an empty folder, and folders grep skips."""
    top = rng.choice(CJK_WORDS) + "_" + token(rng, 3)
    nested = f"{top}/{inputs.letters(rng, 4)}"
    empty = "empty_" + token(rng, 4)
    files = {}
    for folder in ("", top, nested):
        for _ in range(rng.randint(1, 3)):
            files[(folder + "/" if folder else "") + inputs.file_name(rng)] = inputs.text_file(rng, (2, 6))
    return files, top, nested, empty


def test_list_and_grep(ctx):
    """list_dir shows exactly the names in a generated folder (folders with a trailing /, an empty folder said so), and grep finds exactly the lines that match, as path:line: text, in every file below the path but none in .git or __pycache__, or says there are no matches."""
    say = ctx.say
    rng = ctx.rng("list-and-grep")
    workdir = ctx.tmp("list-and-grep").resolve()
    files, top, nested, empty = _tree(rng)
    needle = "tok" + inputs.letters(rng, 7)
    below = sorted(path for path in files if path.startswith(top + "/"))
    beside = sorted(path for path in files if not path.startswith(top + "/"))
    planted = {rng.choice(below), rng.choice(beside), *rng.sample(sorted(files), k=rng.randint(0, 2))}
    for path in sorted(planted):  # a match below the folder grep is sent to, and one beside it
        lines = files[path].split("\n")
        at = rng.randrange(len(lines))
        lines[at] = f"{words(rng, (1, 3))} {needle} {words(rng, (1, 3))}"
        files[path] = "\n".join(lines)
    hidden = {f".git/{needle}.txt": f"{needle}\n", f"__pycache__/{needle}.txt": f"{needle}\n"}
    write_files(workdir, {**files, **hidden})
    (workdir / empty).mkdir()

    def listing(folder: str) -> str:
        prefix = folder + "/" if folder else ""
        names = set()
        for path in [*files, *(hidden if not folder else {})]:
            if path.startswith(prefix):
                rest = path[len(prefix):]
                names.add(rest.split("/", 1)[0] + ("/" if "/" in rest else ""))
        if not folder:
            names.add(empty + "/")
        return "\n".join(sorted(names))

    def matches(folder: str) -> set[str]:
        prefix = folder + "/" if folder else ""
        return {f"{path}:{n}: {line}" for path, text in files.items() if path.startswith(prefix)
                for n, line in enumerate(text.splitlines(), 1) if needle in line}

    absent = "zz" + inputs.letters(rng, 9)
    ops = [{"op": "tool", "name": name, "args": args} for name, args in (
        ("list_dir", {}), ("list_dir", {"path": top}), ("list_dir", {"path": empty}), ("grep", {"pattern": needle}),
        ("grep", {"pattern": needle, "path": top}), ("grep", {"pattern": absent}))]
    answers = run_ops(ctx, "list-and-grep", workdir, ops)
    contents = []
    for op, answer in zip(ops, answers):
        if broke(answer):
            raise CheckFailed(say("list.raised", call=f"{op['name']}({json.dumps(op['args'], ensure_ascii=False)})",
                                  error=broke(answer)))
        contents.append(answer.get("text"))
    for path, content in (("", contents[0]), (top, contents[1])):
        if content != listing(path):
            raise CheckFailed(say("list.wrong", path=path or "."), expected=listing(path), seen=str(content))
    if contents[2] != "(empty directory)":
        raise CheckFailed(say("list.empty", path=empty), expected="(empty directory)", seen=str(contents[2]))
    for path, content in (("", contents[3]), (top, contents[4])):
        seen = set(str(content).split("\n"))
        if seen != matches(path):
            raise CheckFailed(say("grep.wrong", path=path or ".", pattern=needle),
                              expected=" | ".join(sorted(matches(path))), seen=" | ".join(sorted(seen)))
    if contents[5] != "no matches":
        raise CheckFailed(say("grep.none", pattern=absent), expected="no matches", seen=str(contents[5]))
