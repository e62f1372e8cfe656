"""Day 05 checks: the approval gate - a pause is not an exception.

The contract is shared/days/day-05.md. How the checks get their evidence:

* read-only-auto, write-asks and always-remembered run the lab's agent on a terminal of
  its own (a pty) against the grader's model (live.py): the prompts are counted as they
  appear, the answers typed only once a prompt is there, and the workspace and the tool
  results the agent sends back show what ran;
* deny-beats-allow and compound-each-part hand the lab's Approver a rules.toml and
  --rule options generated for this run (rules.py) and a list of calls
  (harnesses/decide.py): each call's decision is compared with the grader's own answer;
* denied-becomes-result, turn-goes-on and yes-never-overrides-deny run the agent on a
  pipe against the grader's model, with rules that deny some of the calls it makes;
* no-tty-denies asks the lab's terminal_asker with stdin /dev/null, a pipe closed at
  once, no stdin at all, and a pipe held open that nobody writes to (harnesses/asker.py).

Names, paths, patterns, rule order and texts are drawn per run from the printed seed.
Student code runs only in children. Wording lives in messages.toml.
"""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from pathlib import Path

from grader.checkkit import CheckFailed, harnessrun, wait_until

from . import rules as R
from .live import (WAIT, Call, Round, Script, agent_env, chat_requests, finish, planted, prompts, screen_tail,
                   prompt_lines, server_for, tool_results, wait_for_prompt)

# A denial in the words of any correct gate: "denied", "blocked by a rule", "refused", "not allowed" ...
DENIAL = re.compile(r"den(?:y|ied|ial)|refus|block|reject|forbid|disallow|not (?:allowed|permitted|run)", re.IGNORECASE)

NO_ONE = "no one to ask"


def _hex(rng, n: int = 6) -> str:
    return f"{rng.randrange(16 ** n):0{n}x}"


def _start_on_terminal(ctx, ws: Path, server, *args: str):
    return ctx.start_agent(*args, cwd=ws, extra_env=agent_env(server), mock=False, tty=True)


def _until(ctx, predicate) -> None:
    wait_until(predicate, ctx.scaled(WAIT))


# --------------------------------------------------------------------------- no rule: the defaults

def test_read_only_auto(ctx):
    """read_file, list_dir and grep run with no prompt on a terminal and return their real results."""
    say, rng = ctx.say, ctx.rng("read-only-auto")
    ws = ctx.workspace("read-only-auto")
    name, line = planted(ws, rng, "notes")
    folder, inner = f"dir_{_hex(rng)}", f"inner_{_hex(rng)}.txt"
    (ws / folder).mkdir()
    (ws / folder / inner).write_text("x\n", encoding="utf-8")
    token = line.split()[1]
    reads = [Call.new("read_file", {"path": name}), Call.new("list_dir", {"path": folder}),
             Call.new("grep", {"pattern": token})]
    rng.shuffle(reads)
    target, body = f"out_{_hex(rng)}.txt", f"written {_hex(rng, 8)}\n"
    write = Call.new("write_file", {"path": target, "content": body})
    prompt = f"look around {_hex(rng)}"
    with server_for(Script({prompt: [Round("Let me look.", tuple(reads)), Round("Now the file.", (write,)),
                                     Round("All done.")]})) as server:
        with _start_on_terminal(ctx, ws, server, prompt) as child:
            asked = wait_for_prompt(ctx, child, 1)
            first = (prompt_lines(child) or [""])[0]
            if asked and "write_file" not in first:
                child.kill()
                raise CheckFailed(say("auto.asked"), expected=say("brief.no_prompt_for", what="read_file, list_dir, grep"),
                                  seen=first)
            if len(chat_requests(server)) < 2:
                raise CheckFailed(say("auto.no_results"), seen=screen_tail(child))
            if not asked:
                raise CheckFailed(say("auto.write_not_asked"), expected=say("brief.prompt_for", what="write_file"),
                                  seen=screen_tail(child))
            child.send("y\n")
            result = finish(ctx, child, "terminal.stuck")
        results = tool_results(server)
    ctx.expect_ok(result, say("terminal.failed", status=result.returncode))
    wanted = {"read_file": line, "list_dir": inner, "grep": name}
    for call in reads:
        content = results.get(call.id)
        if content is None or wanted[call.name] not in content or content.startswith("denied"):
            raise CheckFailed(say("auto.result", tool=call.name, args=json.dumps(call.args, ensure_ascii=False)),
                              expected=say("brief.result_holding", text=repr(wanted[call.name])),
                              seen=content or say("brief.no_result"))
    if prompts(child) != 1 or (ws / target).read_text(encoding="utf-8") != body:
        raise CheckFailed(say("auto.write_once", prompts=prompts(child)), seen=screen_tail(child))


def test_write_asks(ctx):
    """edit_file asks on the terminal and waits: the file is untouched while the prompt is up."""
    say, rng = ctx.say, ctx.rng("write-asks")
    ws = ctx.workspace("write-asks")
    name, line = planted(ws, rng, "draft")
    new = f"changed {_hex(rng, 8)} ✅"
    edit = Call.new("edit_file", {"path": name, "old": line, "new": new})
    before = (ws / name).read_text(encoding="utf-8")
    prompt = f"edit it {_hex(rng)}"
    with server_for(Script({prompt: [Round("I will edit the file.", (edit,)), Round("Edited.")]})) as server:
        with _start_on_terminal(ctx, ws, server, prompt) as child:
            _until(ctx, lambda: prompts(child) or len(chat_requests(server)) >= 2 or not child.running())
            if not prompts(child):
                raise CheckFailed(say("asks.no_prompt", path=name), expected=say("brief.allow_prompt"),
                                  seen=screen_tail(child))
            if (ws / name).read_text(encoding="utf-8") != before:
                raise CheckFailed(say("asks.ran_before_answer", path=name))
            if not child.running() or len(chat_requests(server)) >= 2:  # it must wait for the answer
                raise CheckFailed(say("asks.did_not_wait"), seen=screen_tail(child))
            child.send("y\n")
            result = finish(ctx, child, "terminal.stuck")
        results = tool_results(server)
    ctx.expect_ok(result, say("terminal.failed", status=result.returncode))
    after = (ws / name).read_text(encoding="utf-8")
    if after != before.replace(line, new):
        raise CheckFailed(say("asks.not_run", path=name), expected=say("brief.file_holding", name=name, text=repr(new)),
                          seen=after[:200])
    content = results.get(edit.id, "")
    if not content or content.startswith("denied"):
        raise CheckFailed(say("asks.result"), seen=content or say("brief.no_result"))
    if prompts(child) != 1:
        raise CheckFailed(say("asks.prompts", count=prompts(child)), seen=screen_tail(child))


# --------------------------------------------------------------------------- E1: the strictest rule

def _decisions(ctx, label: str, rule_set: R.RuleSet, rng) -> list[dict]:
    """The lab's decision for every case (harnesses/decide.py), in case order."""
    work = ctx.tmp(label) / "work"
    work.mkdir()
    R.write_workdir(rng, work, rule_set)
    job = {"workdir": str(work), "extra": [r.text() for r in rule_set.extra],
           "calls": [{"name": c.name, "args": c.args, "answer": c.answer} for c in rule_set.cases]}
    gate = ctx.say("harness.gate")
    answers = ctx.harness_answers("decide", job, count=len(rule_set.cases), calls=gate, label="job")
    for case, answer in zip(rule_set.cases, answers):
        problem = ctx.harness_problem(answer, gate, on=_shown(case))
        if problem:
            raise problem
    return answers


def _action(answer: dict) -> str:
    if answer["asked"]:
        return "ask"
    return "allow" if answer["allowed"] else "deny"


def _shown(case: R.Case) -> str:
    if case.name == "run_command":
        return f"run_command {case.args['command']!r}"
    return f"{case.name} {case.args['path']!r}"


def _matching(say, rule_set: R.RuleSet, case: R.Case, subjects: list[str]) -> str:
    found = [r.text() for r in rule_set.all_rules if any(r.applies(case.name, s) for s in subjects)]
    return "; ".join(found) or say("brief.no_rule")


def _judge(ctx, rule_set: R.RuleSet, answers: list[dict], key: str) -> None:
    for case, answer in zip(rule_set.cases, answers):
        seen = _action(answer)
        subjects = list(case.parts) or [case.subject]
        if seen != case.expected:
            raise CheckFailed(ctx.say(key, call=_shown(case), idea=case.idea,
                                      rules=_matching(ctx.say, rule_set, case, subjects)),
                              expected=case.expected, seen=seen)
        named = answer["reason"].partition("(rule: ")[2]
        if seen == "deny" and named and not named.startswith("deny "):
            raise CheckFailed(ctx.say("gate.wrong_rule", call=_shown(case)), expected=ctx.say("brief.deny_rule"),
                              seen=answer["reason"])


def test_deny_beats_allow(ctx):
    """With a rules.toml and --rule options generated for this run (rules in shuffled order), every call gets the strictest action of the rules that match it - deny, then ask, then allow - and the default (read-only allowed, others ask) when none matches."""
    rng = ctx.rng("deny-beats-allow")
    rule_set = R.decision_rules(rng)
    _judge(ctx, rule_set, _decisions(ctx, "deny-beats-allow", rule_set, rng), "gate.not_strictest")


# --------------------------------------------------------------------------- E2: a no is a result

def _deny_setup(ctx, rng, label: str):
    ws = ctx.workspace(label)
    marker = f"made_{_hex(rng)}"
    command = f"mkdir {marker}"
    pattern = rng.choice((f"mkdir {marker}*", f"* {marker}", f"mkdir *{marker[-4:]}", f"*{marker}"))
    noise = [R.Rule("allow", "run_command", f"ls {_hex(rng)}*"), R.Rule("ask", "read_file", f"private_{_hex(rng)}/*")]
    return ws, marker, command, pattern, noise


def test_denied_becomes_result(ctx):
    """A call a rules.toml rule denies does not run: its tool result says it was denied and names the rule, the next call of the same reply still runs, and the agent exits 0."""
    say, rng = ctx.say, ctx.rng("denied-becomes-result")
    ws, marker, command, pattern, noise = _deny_setup(ctx, rng, "denied-becomes-result")
    rules = [R.Rule("deny", "run_command", pattern), *noise]
    rng.shuffle(rules)
    (ws / ".mca").mkdir()
    (ws / ".mca" / "rules.toml").write_text(R.toml_text(rng, rules), encoding="utf-8")
    name, line = planted(ws, rng, "readme")
    denied, read = Call.new("run_command", {"command": command}), Call.new("read_file", {"path": name})
    prompt = f"set it up {_hex(rng)}"
    with server_for(Script({prompt: [Round("Two steps.", (denied, read)), Round("Noted.")]})) as server:
        result = ctx.run_agent(prompt, cwd=ws, extra_env=agent_env(server), mock=False)
        results, count = tool_results(server), len(chat_requests(server))
    if (ws / marker).exists():
        raise CheckFailed(say("denied.ran", command=command, pattern=pattern))
    ctx.expect_ok(result, say("denied.crashed", status=result.returncode))
    content = results.get(denied.id)
    if count < 2 or content is None:
        raise CheckFailed(say("denied.no_result"), seen=ctx.evidence(result))
    if not DENIAL.search(content) or pattern not in content:  # a denial in any words, naming the rule
        raise CheckFailed(say("denied.reason", pattern=pattern),
                          expected=say("brief.result_naming", rule=f"'deny run_command {pattern}'"),
                          seen=content)
    if line not in results.get(read.id, ""):
        raise CheckFailed(say("denied.next_call", path=name), seen=results.get(read.id, say("brief.no_result")))


def test_turn_goes_on(ctx):
    """In the REPL, after a --rule denial the model is asked again in the same turn with the denial in its history, its answer is shown before the next prompt, and the next line is a normal turn on a valid history."""
    say, rng = ctx.say, ctx.rng("turn-goes-on")
    ws, marker, command, pattern, _ = _deny_setup(ctx, rng, "turn-goes-on")
    call = Call.new("run_command", {"command": command})
    first, second = f"make the folder {_hex(rng)}", f"what next {_hex(rng)}"
    answer, later = f"That was refused, so I will not create {marker}. ({_hex(rng, 8)})", f"Next: {_hex(rng, 8)}."
    script = Script({first: [Round("Creating it.", (call,)), Round(answer)], second: [Round(later)]})
    with server_for(script) as server:
        result = ctx.run_agent("--rule", f"deny run_command {pattern}", cwd=ws, extra_env=agent_env(server), mock=False,
                               input=f"{first}\n{second}\n/exit\n")
        requests = chat_requests(server)
        problems = server.problems
    if (ws / marker).exists():
        raise CheckFailed(say("denied.ran", command=command, pattern=pattern))
    out = result.stdout
    if answer not in out:
        raise CheckFailed(say("turn.no_answer"), expected=answer, seen=ctx.evidence(result))
    prompts_at = [i for i in range(len(out)) if out.startswith("you > ", i)]
    after = [i for i in prompts_at if i > out.index(answer)]
    if len(prompts_at) < 2 or prompts_at[1] < out.index(answer):
        raise CheckFailed(say("turn.answer_late"), seen=out[-300:])
    if later not in out or not after or out.index(later) < after[0]:
        raise CheckFailed(say("turn.next_line"), expected=later, seen=ctx.evidence(result))
    if problems:
        raise CheckFailed(say("turn.invalid_history"), seen=problems[0])
    roles = [m.get("role") for m in requests[-1].messages] if requests else []
    if len(requests) != 3 or roles != ["system", "user", "assistant", "tool", "assistant", "user"]:
        raise CheckFailed(say("turn.history", count=len(requests)),
                          expected=say("brief.turn_roles"), seen=roles)
    ctx.expect_ok(result, say("turn.failed", status=result.returncode))


# --------------------------------------------------------------------------- E3: always

def _judge_session(ctx, rule_set: R.RuleSet, answers: list[dict]) -> None:
    """Each call of the session: asked or not as expected, and an asked call allowed exactly when y/always was typed."""
    say = ctx.say

    def outcome(action: str, allowed: bool) -> str:
        if action == "ask":
            return say("brief.asked_allowed" if allowed else "brief.asked_refused")
        return say("brief.allowed_unasked" if allowed else "brief.denied_unasked")

    for number, (case, answer) in enumerate(zip(rule_set.cases, answers), 1):
        seen, allowed = _action(answer), bool(answer["allowed"])
        wanted = case.answer.lower() in ("y", "yes", "a", "always") if case.expected == "ask" else case.expected == "allow"
        if seen != case.expected or allowed != wanted:
            raise CheckFailed(say("always.session", number=number, call=_shown(case), idea=case.idea),
                              expected=outcome(case.expected, wanted), seen=outcome(seen, allowed))


def test_always_remembered(ctx):
    """Answering always on the terminal lets later calls of the same kind (the same program, other arguments) run without a prompt."""
    say, rng = ctx.say, ctx.rng("always-remembered")
    session = R.always_session(rng)
    _judge_session(ctx, session, _decisions(ctx, "always-session", session, rng))
    ws = ctx.workspace("always-remembered")
    program = rng.choice(("echo", "printf"))
    tokens = [f"tok{_hex(rng, 8)}" for _ in range(4)]
    sep = "" if program == "echo" else "\\n"
    first = Call.new("run_command", {"command": f"{program} '{tokens[0]}{sep}'"})
    again = Call.new("run_command", {"command": f"{program} '{tokens[1]} {rng.choice(('-', '+', '='))}{sep}'"})
    other = f"{program}{rng.choice(('x', '2', 'ing', '-all'))}"
    different = Call.new("run_command", {"command": f"{other} {tokens[2]}"})
    answer = rng.choice(("always", "a"))
    prompt = f"print things {_hex(rng)}"
    rounds = [Round("First.", (first,)), Round("Again.", (again,)), Round("Other.", (different,)), Round("Done.")]
    with server_for(Script({prompt: rounds})) as server:
        with _start_on_terminal(ctx, ws, server, prompt) as child:
            if not wait_for_prompt(ctx, child, 1):
                raise CheckFailed(say("always.no_prompt"), seen=screen_tail(child))
            child.send(answer + "\n")
            _until(ctx, lambda: len(chat_requests(server)) >= 3 or prompts(child) >= 2 or not child.running())
            if prompts(child) >= 2 and len(chat_requests(server)) < 3:
                raise CheckFailed(say("always.asked_again", answer=answer, program=program,
                                      command=first.args["command"]),
                                  expected=say("brief.no_prompt_for", what=repr(again.args["command"])),
                                  seen=screen_tail(child))
            _until(ctx, lambda: len(chat_requests(server)) >= 4 or prompts(child) >= 2 or not child.running())
            if prompts(child) < 2:
                raise CheckFailed(say("always.too_wide", program=program, other=other),
                                  expected=say("brief.prompt_for", what=repr(different.args["command"])),
                                  seen=screen_tail(child))
            child.send("y\n")
            result = finish(ctx, child, "terminal.stuck")
        results = tool_results(server)
    ctx.expect_ok(result, say("terminal.failed", status=result.returncode))
    for call, token in ((first, tokens[0]), (again, tokens[1])):
        if token not in results.get(call.id, ""):
            raise CheckFailed(say("always.not_run", command=call.args["command"]),
                              seen=results.get(call.id, say("brief.no_result")))
    # A new session: nothing of the first one's "always" is left.
    later = Call.new("run_command", {"command": f"{program} '{tokens[3]}{sep}'"})
    prompt2 = f"once more {_hex(rng)}"
    with server_for(Script({prompt2: [Round("Once more.", (later,)), Round("Done.")]})) as server:
        with _start_on_terminal(ctx, ws, server, prompt2) as child:
            _until(ctx, lambda: prompts(child) or len(chat_requests(server)) >= 2 or not child.running())
            if not prompts(child):
                raise CheckFailed(say("always.kept", program=program), seen=screen_tail(child))
            child.send("y\n")
            finish(ctx, child, "terminal.stuck")


# --------------------------------------------------------------------------- E4: compound commands

def test_compound_each_part(ctx):
    """A compound command (&&, ||, ;, |, &, a newline, $( ), backticks, <( ), >( )) is judged part by part: denied if any part is denied, asked if any part asks or matches no rule, allowed only if every part is, however many parts (2>&1 and &> are no separators)."""
    rng = ctx.rng("compound-each-part")
    rule_set = R.compound_rules(rng)
    _judge(ctx, rule_set, _decisions(ctx, "compound-each-part", rule_set, rng), "gate.compound")


# --------------------------------------------------------------------------- E5: nobody at the terminal

def _asker_job(ctx, rng, label: str, stdin: str, tty_out: bool = False, text: str = "") -> Path:
    work = ctx.tmp(f"{label}-work")
    calls = [{"name": "edit_file", "args": {"path": f"f_{_hex(rng)}.txt", "old": "a", "new": "b"}},
             {"name": "run_command", "args": {"command": f"{R.words(rng, 1)[0]} {_hex(rng)}"}}]
    path = work / f"{label}.json"
    job = {"workdir": str(work), "stdin": stdin, "tty_out": tty_out, "out": str(work / "answers.jsonl"),
           "text": text, "calls": calls}
    path.write_text(ctx.in_view(json.dumps(job)), encoding="utf-8")
    return path


def _asker_answers(job: Path) -> dict:
    answers = job.parent / "answers.jsonl"
    text = answers.read_text(encoding="utf-8") if answers.is_file() else ""
    return {value.get("i", -1): value for value in harnessrun.tagged(text, "asker")}  # -1: the set-up failed


def _judge_asker(ctx, answers: dict, how: str, result) -> None:
    say = ctx.say
    if -1 in answers:
        raise CheckFailed(say("tty.raised", how=how, error=answers[-1].get("raised") or answers[-1].get("stub"),
                              where=answers[-1]["where"]))
    for i in (0, 1):
        answer = answers.get(i)
        if answer is None:
            raise CheckFailed(say("tty.died", how=how), seen=ctx.evidence(result))
        if "raised" in answer or "stub" in answer:
            raise CheckFailed(say("tty.raised", how=how, error=answer.get("raised") or answer.get("stub"),
                                  where=answer["where"]))
        if answer["allowed"]:
            raise CheckFailed(say("tty.allowed", how=how), expected=say("brief.not_allowed"), seen=say("brief.allowed"))
        if NO_ONE not in answer["reason"]:
            raise CheckFailed(say("tty.reason", how=how), expected=say("brief.reason_no_one", words=NO_ONE),
                              seen=answer["reason"])


def test_no_tty_denies(ctx):
    """With stdin /dev/null (also with stdout on a terminal), a pipe closed at once, no stdin at all, a pipe held open that nobody writes to, or a pipe or file already holding answers, an ask becomes a denial whose reason says there is no one to ask, and nothing waits for an answer."""
    say, rng = ctx.say, ctx.rng("no-tty-denies")
    script = ctx.harness("asker")
    typed = "".join(rng.choice(("y\n", "yes\n", "always\n", "a\n")) for _ in range(rng.randint(3, 6)))
    ways = ((say("what.devnull"), "devnull", False), (say("what.closed"), "closed", False),
            (say("what.no_stdin"), "none", False), (say("what.devnull_tty"), "devnull", True),
            (say("what.held_open"), "as-given", False),
            (say("what.pipe_text", text=repr(typed)), "pipe-text", False),
            (say("what.file_text", text=repr(typed)), "file-text", False))
    jobs = [_asker_job(ctx, rng, f"asker-{n}", "as-given" if stdin == "closed" else stdin, tty_out, typed)
            for n, (_, stdin, tty_out) in enumerate(ways)]
    with ExitStack() as stack:  # leaving it stops every child still running
        children = [stack.enter_context(ctx.start_harness(script, str(job))) for job in jobs]  # all at once
        children[1].close_stdin()  # the others keep a pipe the grader never writes to (unused but for the last)
        for (how, _, _), job, child in zip(ways, jobs, children):
            wait_until(lambda: not child.running(), ctx.scaled(WAIT))
            if child.running():
                printed = child.stdout_so_far().strip()[-200:] or say("brief.nothing")
                child.kill()
                raise CheckFailed(say("tty.waited", how=how, seconds=round(ctx.scaled(WAIT))), seen=printed)
            _judge_asker(ctx, _asker_answers(job), how, child.wait(5))


# --------------------------------------------------------------------------- --yes

def test_yes_never_overrides_deny(ctx):
    """With --yes and no terminal, calls that would ask run without a prompt, while a call denied by rules.toml (even through ./ or ../ spellings) or by the built-in rm -rf rule does not run."""
    say, rng = ctx.say, ctx.rng("yes-never-overrides-deny")
    ws = ctx.workspace("yes-never-overrides-deny")
    secret, keep, made = f"secret_{_hex(rng)}", f"keep_{_hex(rng)}", f"made_{_hex(rng)}"
    (ws / secret).mkdir()
    (ws / keep).mkdir()
    (ws / keep / "data.txt").write_text("keep me\n", encoding="utf-8")
    (ws / ".mca").mkdir()
    (ws / ".mca" / "rules.toml").write_text(R.toml_text(rng, [R.Rule("deny", "write_file", f"{secret}/*")]),
                                            encoding="utf-8")
    free, body = f"free_{_hex(rng)}.txt", f"free {_hex(rng, 8)}\n"
    spelled = rng.choice((f"{secret}/x_{_hex(rng)}.txt", f"./{secret}/x_{_hex(rng)}.txt",
                          f"{keep}/../{secret}/x_{_hex(rng)}.txt"))
    asks = [Call.new("write_file", {"path": free, "content": body}), Call.new("run_command", {"command": f"mkdir {made}"})]
    denies = [Call.new("write_file", {"path": spelled, "content": "leak\n"}),
              Call.new("run_command", {"command": f"rm -rf {keep}"})]
    rng.shuffle(asks)
    rng.shuffle(denies)
    prompt = f"tidy up {_hex(rng)}"
    with server_for(Script({prompt: [Round("Working.", tuple(asks + denies)), Round("Done.")]})) as server:
        result = ctx.run_agent("--yes", prompt, cwd=ws, extra_env=agent_env(server), mock=False)
    if not (ws / free).is_file() or not (ws / made).is_dir():
        raise CheckFailed(say("yes.asks_not_run"), expected=say("brief.written_and_made", file=free, folder=made),
                          seen=ctx.evidence(result))
    leaked = [p.name for p in (ws / secret).iterdir()]
    if leaked or not (ws / keep / "data.txt").is_file():
        what = (say("brief.written", path=f"{secret}/{leaked[0]}") if leaked
                else say("brief.deleted", folder=keep))
        raise CheckFailed(say("yes.deny_overridden"), expected=say("brief.denied_not_run"), seen=what)
