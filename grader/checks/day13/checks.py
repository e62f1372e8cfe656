"""Day 13 checks: subagents, a side task in a fresh context with fewer tools, its own caps
and only its answer back.

The contract is shared/days/week-2.md, day 13. Every check runs the lab's agent as a person
runs it (`python -m mca PROMPT`, or the REPL fed its lines; on a pseudo-terminal of its own in
answer-only, read-only-by-default, lineage-logged and cancel-child-keeps-parent) against the
grader's fake model server, which plays both sides (wire.py): the parent's model reads files
of its own and then hands out side tasks with the task tool, in one reply; each subagent's
model reads files of its own and answers, or never stops asking, or tries to hand its task on,
or writes. What each side says is generated for the run with a mark of its own, in plain
English, in one other script and mixed, so a mark of the parent's in a subagent's request is
the parent's conversation leaking into it, and a mark of a subagent's rounds in the parent's
request is the side task's work coming back with its answer.

Every draw holds the cases its check is about: the parent's earlier turn and the tool round
just before the task call; two or three tasks in one reply (a wrong call id shows only then);
a short answer with white space at its ends, one of exactly the cap and one over it; a
subagent that answers on its last allowed round, one that never answers, one whose budget is
spent exactly and one that goes over it; writes asked for under --yes on a terminal and
under a rule that allows one tool; a task call the subagent makes although it is not offered
one; a Ctrl-C while the subagent's request is still streaming.
"""

from __future__ import annotations

import hashlib
import json
import re
import signal
import time

from grader.checkkit import CheckFailed, ChildTimeout, wait_until
from grader.checkkit.chain import valid_chain
from grader.checkkit.fakeserver import FakeModelServer, Gate
from grader.checkkit.sessionlog import logs_in

from .wire import (ANSWER_CAP, CANCEL_WORDS, CUT_WORDS, FAIL_WORDS, PARENT_ONLY, READ_ONLY, SESSION_TIMEOUT, STOP_WORDS, TASK, WRITERS, Log,
                   Script, Task, after_tasks, all_logs, body, draw_task, draw_turn, estimate, is_error, long_text, marker,
                   message_text, need, offered, results, run, said_lines, say, shown, started)


def shape(message: dict) -> tuple:
    """What of a message the checks compare: its role, its text, the ids of its calls or result."""
    calls = tuple(str(c.get("id")) for c in message.get("tool_calls") or [] if isinstance(c, dict))
    return (message.get("role"), message_text(message), calls, message.get("tool_call_id"))


def parent_log(ctx, run_) -> Log:
    logs = logs_in(run_.sessions)
    if not logs:
        raise CheckFailed(ctx.say("log.none"), seen=shown(run_.said[-400:], 400))
    found = [log for log in all_logs(run_.sessions) if log.path == logs[0]]
    return found[0]


# --------------------------------------------------------------------------- 1

def test_fresh_context(ctx):
    """A subagent's requests start with its own system prompt and hold the task's prompt as their only user message, and nothing of the parent's conversation."""
    rng = ctx.rng("fresh-context")
    ws = ctx.workspace("fresh")
    rules = marker(rng, "g")  # the project's instructions (day 9): in the parent's system messages only
    (ws / "AGENTS.md").write_text(f"# How to work here\n\n{rules} {say(rng, 0, (8, 20))} {rules}h\n", encoding="utf-8")
    earlier = draw_turn(rng, 0, ws, reads=1)
    # The parent keeps a plan (day 11), whose items it is reminded of after idle rounds: the
    # first subagent runs long enough to be reminded of a plan of its own, if it had one.
    earlier.before.insert(0, [("todo", {"items": [{"content": f"{earlier.tag}i {say(rng, 0, (3, 8))}",
                                                   "status": "in_progress"}]})])
    tasks = [draw_task(rng, 1, ws, reads=rng.randint(4, 5)), draw_task(rng, 2, ws)]
    rng.shuffle(tasks)
    now = draw_turn(rng, rng.randint(1, 2), ws, reads=1, tasks=tasks)
    script = Script([earlier, now])
    ran = run(ctx, "fresh", script, None, ws=ws, typed=f"{earlier.prompt}\n{now.prompt}\n/exit\n")
    ctx.expect_ok(ran.result)
    first = need(ctx, earlier.requests, "turn.missing", ran)[0]
    parent_system = message_text(first.messages[0]) if first.messages else ""
    for task in tasks:
        request = started(ctx, task, ran, script)
        messages = [m for m in request.messages if isinstance(m, dict)]
        rest = [m for m in messages if m.get("role") != "system"]
        if not messages or messages[0].get("role") != "system":
            raise CheckFailed(ctx.say("fresh.no_system"), seen=shown([m.get("role") for m in messages], 200))
        if len(rest) != 1 or rest[0].get("role") != "user" or task.prompt not in message_text(rest[0]):
            raise CheckFailed(ctx.say("fresh.not_only_prompt", count=len(rest)), expected=shown(["user: " + task.prompt], 200),
                              seen=shown([f"{m.get('role')}: {message_text(m)[:60]}" for m in rest], 400))
        marks = {earlier.tag: ctx.say("fresh.earlier"), now.tag: ctx.say("fresh.now"), rules: ctx.say("fresh.rules")}
        marks.update({other.tag: ctx.say("fresh.sibling") for other in tasks if other is not task})
        for number, sent in enumerate(task.requests, 1):
            for tag, what in marks.items():
                if tag in body(sent):
                    text = body(sent)
                    at = text.index(tag)
                    raise CheckFailed(ctx.say("fresh.leak", number=number, what=what),
                                      seen=shown(text[max(0, at - 120):at + 120], 300))
        if parent_system and parent_system in message_text(messages[0]):
            raise CheckFailed(ctx.say("fresh.parent_system"), seen=shown(parent_system, 200))


# --------------------------------------------------------------------------- 2

def bill_line(lines: list[str], names: tuple[str, ...], chars: int, tokens: int) -> str | None:
    """The line that names the task (by its description or its call) with the answer's figures."""
    figures = re.compile(rf"(?<!\d){chars} char.*?(?<!\d){tokens} tokens?\b")
    return next((line for line in lines if any(n in line for n in names) and figures.search(line)), None)


def bill_event(log: Log, call_id: str, tag: str, chars: int, tokens: int) -> dict | None:
    for event in log.events:
        if event.get("type") == "message":
            continue
        text = str(event)
        if event.get("chars") == chars and event.get("tokens") == tokens and (call_id in text or tag in text):
            return event
    return None


def is_result(event: dict, tasks: list[Task]) -> bool:
    """A message event holding the result of one of the tasks' calls."""
    message = event.get("message") if event.get("type") == "message" else None
    return isinstance(message, dict) and message.get("role") == "tool" and \
        message.get("tool_call_id") in {t.call_id for t in tasks}


def result_seq(log: Log, call_id: str) -> int | None:
    for event in log.events:
        message = event.get("message") if event.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            return event.get("seq")
    return None


def test_answer_only(ctx):
    """The parent's next request holds each subagent's final answer as its task call's result, at most 2000 characters with a longer one's cut declared, none of the subagent's tool rounds, and a bill printed and logged for it."""
    rng = ctx.rng("answer-only")
    ws = ctx.workspace("answer")
    short_one = draw_task(rng, 0, ws, reads=2)
    short_one.answer = rng.choice(["  ", "\n", " \n "]) + short_one.answer + rng.choice([" ", "\n", "  \n"])
    long_one = draw_task(rng, 1, ws, reads=1)
    long_one.answer = long_text(rng, 1, long_one.tag, rng.randint(ANSWER_CAP + 600, 2 * ANSWER_CAP + 1200))
    exact = draw_task(rng, 2, ws)
    exact.answer = long_text(rng, 2, exact.tag, ANSWER_CAP)
    tasks = [short_one, long_one, exact]
    rng.shuffle(tasks)
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=rng.randint(0, 1), tasks=tasks)
    script = Script([turn])
    ran = run(ctx, "answer", script, turn.prompt, ws=ws, tty=True)
    ctx.expect_ok(ran.result)
    for task in tasks:
        started(ctx, task, ran, script)
    request = need(ctx, after_tasks(turn), "answer.no_next", ran)
    got = results(request)
    for task in tasks:
        content = got.get(task.call_id)
        if content is None:
            raise CheckFailed(ctx.say("answer.no_result", call=task.call_id), seen=shown(sorted(got), 200))
        for piece in (f"{task.tag}f", f"call_{task.tag}_", f"Looking ({task.tag})"):
            if piece in body(request):
                text = body(request)
                at = text.index(piece)
                raise CheckFailed(ctx.say("answer.rounds_leaked"), seen=shown(text[max(0, at - 100):at + 140], 300))
    messages = [m for m in request.messages if isinstance(m, dict)]
    handed = max(i for i, m in enumerate(messages) if any(c.get("id") == tasks[0].call_id for c in m.get("tool_calls") or []))
    after = messages[handed + 1:]
    want = [("tool", t.call_id) for t in tasks]
    if [(m.get("role"), m.get("tool_call_id")) for m in after] != want:
        raise CheckFailed(ctx.say("answer.extra_messages", count=len(tasks)), expected=shown(want, 300),
                          seen=shown([(m.get("role"), m.get("tool_call_id") or message_text(m)[:40]) for m in after], 400))
    if got[short_one.call_id].strip() != short_one.answer.strip():
        raise CheckFailed(ctx.say("answer.not_the_answer"), expected=shown(short_one.answer.strip(), 200),
                          seen=shown(got[short_one.call_id], 200))
    if got[exact.call_id] != exact.answer:
        raise CheckFailed(ctx.say("answer.cut_at_cap", cap=ANSWER_CAP), expected=shown(exact.answer[-80:], 100),
                          seen=f"{len(got[exact.call_id])} chars: " + shown(got[exact.call_id][-120:], 140))
    cut, whole = got[long_one.call_id], long_one.answer
    if len(cut) > ANSWER_CAP:
        raise CheckFailed(ctx.say("answer.uncapped", chars=len(whole), cap=ANSWER_CAP), seen=f"{len(cut)} chars")
    if whole[:80] not in cut[:400] or len(cut) < ANSWER_CAP // 2:  # its start kept (a note of the cut may come first)
        raise CheckFailed(ctx.say("answer.overcut", chars=len(whole), cap=ANSWER_CAP),
                          expected=shown(whole[:80] + " …", 120), seen=f"{len(cut)} chars: " + shown(cut[:120], 140))
    if str(len(whole)) not in cut.replace(",", "") or not CUT_WORDS.search(cut):
        raise CheckFailed(ctx.say("answer.cut_undeclared", chars=len(whole)),
                          seen=shown(cut[:140], 140) + " … " + shown(cut[-160:], 160))
    lines = said_lines(ran)
    log = parent_log(ctx, ran)
    for task in tasks:
        content = got[task.call_id]
        chars, tokens = len(content), estimate(content)
        if bill_line(lines, (task.tag, task.call_id), chars, tokens) is None:
            raise CheckFailed(ctx.say("answer.no_bill", chars=chars, tokens=tokens),
                              expected=f'injected: answer of task "{task.description[:30]}…" {chars} chars ≈ {tokens} tokens',
                              seen=shown("\n".join(l for l in lines if task.tag in l or "inject" in l) or ran.said[-300:], 300))
        event = bill_event(log, task.call_id, task.tag, chars, tokens)
        if event is None:
            raise CheckFailed(ctx.say("answer.not_logged", chars=chars, tokens=tokens),
                              seen=shown([e.get("type") for e in log.events], 300))
        answered = result_seq(log, task.call_id)
        if answered is None or not isinstance(event.get("seq"), int) or event["seq"] > answered:
            raise CheckFailed(ctx.say("answer.logged_late"), seen=shown([e.get("type") for e in log.events], 300))


# --------------------------------------------------------------------------- 3

def writing_task(rng, ws, k: int, *, all_kinds: bool) -> tuple[Task, dict]:
    """A subagent whose model asks for writes (every kind, or write_file alone), then answers."""
    task = draw_task(rng, k, ws)
    new = f"{task.tag}_new.txt"
    content = f"{task.tag}w {say(rng, k, (4, 10))}\n"
    calls = [("write_file", {"path": new, "content": content})]
    if all_kinds:
        calls += [("edit_file", {"path": "calc.py", "old": "def add(a, b):", "new": f"def add_{task.tag}(a, b):"}),
                  ("run_command", {"command": f"touch {task.tag}_ran.txt"}),
                  ("remember", {"text": f"{task.tag}m {say(rng, k + 1, (3, 6))}", "scope": "user"})]
        rng.shuffle(calls)
    task.rounds = [calls]
    return task, {"new": new, "content": content, "ran": f"{task.tag}_ran.txt"}


ALWAYS_ASKED = "[a]lways: "  # the end of day 5's question at the terminal


def test_read_only_by_default(ctx):
    """A subagent is offered the parent's read-only tools and no tool that writes, even under --yes or after an "always" at the terminal, and a write tool only when a rule of the parent allows that tool outright."""
    rng = ctx.rng("read-only-by-default")
    ws = ctx.workspace("read-only")
    memory = ctx.tmp("read-only-home") / ".notes" / "memory.jsonl"
    task, files = writing_task(rng, ws, rng.randint(0, 2), all_kinds=True)
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=0, tasks=[task])
    calc = hashlib.sha256((ws / "calc.py").read_bytes()).hexdigest()
    # --yes, and a rule that allows write_file only for some paths: neither allows it outright
    folder = marker(rng, "d")
    ran = run(ctx, "read-only", Script([turn]), turn.prompt, ws=ws, tty=True, env={"MCA_USER_MEMORY": str(memory)},
              options=("--yes", "--rule", f"allow write_file {folder}/*"))
    ctx.expect_ok(ran.result)
    first = started(ctx, task, ran, Script([turn]))
    names = offered(first)
    missing = [n for n in READ_ONLY if n not in names]
    if missing:
        raise CheckFailed(ctx.say("readonly.missing", tools=", ".join(missing)), seen=", ".join(names) or "-")
    writers = [n for n in names if n in WRITERS]
    if writers:
        raise CheckFailed(ctx.say("readonly.writer_offered", tools=", ".join(writers)), seen=", ".join(names))
    changed = []
    if (ws / files["new"]).exists():
        changed.append(f"write_file {files['new']}")
    if hashlib.sha256((ws / "calc.py").read_bytes()).hexdigest() != calc:
        changed.append("edit_file calc.py")
    if (ws / files["ran"]).exists():
        changed.append(f"run_command touch {files['ran']}")
    if memory.exists() and task.tag in memory.read_text(encoding="utf-8", errors="replace"):
        changed.append("remember")
    if changed:
        raise CheckFailed(ctx.say("readonly.wrote", what="; ".join(changed)), seen=", ".join(names))
    # The other side: a rule of the parent's that allows write_file lets that one through, and only it.
    # Every call the subagent makes still passes the parent's gate: a deny rule holds for it too.
    ws2 = ctx.workspace("read-only-rule")
    task2, files2 = writing_task(rng, ws2, rng.randint(0, 2), all_kinds=False)
    secret = f"{task2.tag}_private.txt"
    (ws2 / secret).write_text(f"{task2.tag}s {say(rng, 1, (4, 10))} {task2.tag}s\n", encoding="utf-8")
    task2.rounds[0].insert(rng.randint(0, len(task2.rounds[0])), ("read_file", {"path": secret}))
    turn2 = draw_turn(rng, rng.randint(0, 2), ws2, reads=0, tasks=[task2])
    script2 = Script([turn2])
    ran2 = run(ctx, "read-only-rule", script2, turn2.prompt, ws=ws2, tty=True, env={"MCA_USER_MEMORY": str(memory)},
               options=("--rule", "allow write_file", "--rule", f"deny read_file {secret}"))
    ctx.expect_ok(ran2.result)
    names2 = offered(started(ctx, task2, ran2, script2))
    if "write_file" not in names2 or [n for n in names2 if n in WRITERS and n != "write_file"]:
        raise CheckFailed(ctx.say("readonly.rule_ignored"), expected=", ".join(READ_ONLY + ("write_file",)),
                          seen=", ".join(names2) or "-")
    for number, sent in enumerate(task2.requests, 1):
        if f"{task2.tag}s " in body(sent):
            raise CheckFailed(ctx.say("readonly.gate_bypassed", path=secret, number=number),
                              seen=shown(results(sent), 300))
    written = ws2 / files2["new"]
    if not written.is_file() or written.read_text(encoding="utf-8", errors="replace") != files2["content"]:
        raise CheckFailed(ctx.say("readonly.rule_write_failed", path=files2["new"]),
                          seen=shown(results(task2.requests[-1]) if len(task2.requests) > 1 else ran2.said[-300:], 300))
    # "always", answered at the terminal to a write of the parent's, is consent to the parent's
    # calls of that kind, as --yes is: not a rule, so the subagent still gets no write tool.
    ws3 = ctx.workspace("read-only-always")
    task3, files3 = writing_task(rng, ws3, rng.randint(0, 2), all_kinds=False)
    turn3 = draw_turn(rng, rng.randint(0, 2), ws3, reads=0, tasks=[task3])
    own = f"{turn3.tag}_own.txt"
    turn3.before = [[("write_file", {"path": own, "content": f"{turn3.tag}w {say(rng, 0, (3, 8))}\n"})]]
    script3 = Script([turn3])
    ran3 = run(ctx, "read-only-always", script3, None, ws=ws3, tty=True, env={"MCA_USER_MEMORY": str(memory)},
               typed=f"{turn3.prompt}\n/exit\n", answer=lambda line: "a", question=ALWAYS_ASKED)
    ctx.expect_ok(ran3.result)
    if not (ws3 / own).is_file():
        raise CheckFailed(ctx.say("readonly.always_not_asked", path=own), seen=shown(ran3.said[-400:], 400))
    names3 = offered(started(ctx, task3, ran3, script3))
    if [n for n in names3 if n in WRITERS] or (ws3 / files3["new"]).exists():
        raise CheckFailed(ctx.say("readonly.always_is_consent"), expected=", ".join(READ_ONLY),
                          seen=", ".join(names3) or "-")


# --------------------------------------------------------------------------- 4

def test_no_recursion(ctx):
    """A subagent is never offered the task tool or the parent's todo, and a task call it makes anyway starts no subagent and comes back to it as an error."""
    rng = ctx.rng("no-recursion")
    ws = ctx.workspace("recursion")
    grand = draw_task(rng, 2, ws)
    task = draw_task(rng, rng.randint(0, 1), ws, reads=1)
    handed = (TASK, {"description": grand.description, "prompt": grand.prompt})
    task.rounds[0] = task.rounds[0] + [handed] if rng.random() < 0.5 else [handed] + task.rounds[0]
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=rng.randint(0, 1), tasks=[task])
    script = Script([turn], more=[grand])
    ran = run(ctx, "recursion", script, turn.prompt, ws=ws)
    ctx.expect_ok(ran.result)
    started(ctx, task, ran, script)
    for number, request in enumerate(task.requests, 1):
        if TASK in offered(request):
            raise CheckFailed(ctx.say("recursion.offered", number=number), seen=", ".join(offered(request)))
        if [n for n in offered(request) if n in PARENT_ONLY]:
            raise CheckFailed(ctx.say("recursion.parent_only", number=number), seen=", ".join(offered(request)))
    if grand.requests:
        raise CheckFailed(ctx.say("recursion.started"), seen=shown(message_text(grand.requests[0].messages[-1]), 200))
    call = f"call_{task.tag}_0_{task.rounds[0].index(handed)}"
    later = need(ctx, task.requests[1:], "recursion.no_second", ran)
    came = results(later[0]).get(call)
    if came is None or grand.answer in came or not is_error(came) or not re.search(r"error|no tool|not (?:available|allowed)|unknown|denied",
                                                             came, re.IGNORECASE):
        raise CheckFailed(ctx.say("recursion.not_error"), seen=shown(came if came is not None else results(later[0]), 200))
    logs = all_logs(ran.sessions)
    if len(logs) > 2:
        raise CheckFailed(ctx.say("recursion.third_log", count=len(logs)), seen=shown([str(l.path.name) for l in logs], 300))
    answered = need(ctx, after_tasks(turn), "recursion.no_answer", ran)
    if task.answer not in results(answered).get(task.call_id, ""):
        raise CheckFailed(ctx.say("recursion.no_answer"), seen=shown(results(answered).get(task.call_id), 200))


# --------------------------------------------------------------------------- 5

def spend(rng, budget: int, count: int, exact: bool) -> list[tuple[int, int]]:
    """Usages (prompt, completion) per request such that the total reaches `budget` on request
    `count` and not before: exactly, from a few tokens under it (so a child that guesses what
    its next request will cost, and stops short, sends one too few), or going over it."""
    out, total = [], 0
    for n in range(count - 1):
        if exact and n == count - 2:
            x = budget - rng.randint(1, 20) - total  # just under the budget before the last request
        else:
            x = rng.randint(max(1, (budget - 1) // (2 * count)), max(1, (budget - 1) // count))
        out.append(x)
        total += x
    out.append(budget - total + (0 if exact else rng.randint(1, 60)))
    pairs = []
    for x in out:
        c = rng.randint(0, min(40, x - 1)) if x > 1 else 0
        pairs.append((x - c, c))
    return pairs


def test_child_capped(ctx):
    """A subagent stops at its own round cap ($MCA_TASK_ROUNDS), at its own token budget ($MCA_TASK_BUDGET) and when its request fails, and the parent's next request holds an error result saying it stopped, while one that answers on its last round or with the request that spends its budget has answered."""
    rng = ctx.rng("child-capped")
    ws = ctx.workspace("capped")
    cap = rng.randint(3, 5)
    budget = rng.randint(400, 1600)
    endless = draw_task(rng, 0, ws)
    endless.answer, endless.usage = None, [(1, 1)] * 12
    last = draw_task(rng, 1, ws, reads=cap - 1)  # answers on its last allowed round, most of a budget spent
    last.usage = [(budget * 6 // (10 * cap), 2)] * cap
    exact, over = draw_task(rng, 2, ws), draw_task(rng, 0, ws)
    exact.answer = over.answer = None
    exact_at, over_at = rng.randint(2, cap - 1), rng.randint(1, cap - 1)
    exact.usage = spend(rng, budget, exact_at, True) + [(1, 1)] * 12
    over.usage = spend(rng, budget, over_at, False) + [(1, 1)] * 12
    spent_at = rng.randint(1, cap - 1)  # answers with the request that reaches its budget
    spender = draw_task(rng, 1, ws, reads=spent_at - 1)
    spender.usage = spend(rng, budget, spent_at, rng.random() < 0.5)
    failing = draw_task(rng, 2, ws, reads=1)
    failing.fail_at = rng.randint(0, 1)  # its model request fails (HTTP 400: no retry helps)
    # Each subagent has a budget of its own: one that answered after spending much of one comes
    # before others that spend a whole one.
    tasks = [endless, exact, over, failing]
    rng.shuffle(tasks)
    first_budget = min(tasks.index(exact), tasks.index(over))
    tasks.insert(rng.randint(0, first_budget), last)
    tasks.insert(rng.randint(0, tasks.index(exact if tasks.index(exact) > tasks.index(over) else over)), spender)
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=0, tasks=tasks)
    script = Script([turn])
    ran = run(ctx, "capped", script, turn.prompt, ws=ws,
              env={"MCA_TASK_ROUNDS": str(cap), "MCA_TASK_BUDGET": str(budget)})
    ctx.expect_ok(ran.result)
    for task in tasks:
        started(ctx, task, ran, script)
    if len(endless.requests) != cap:
        raise CheckFailed(ctx.say("capped.rounds", cap=cap), expected=ctx.say("capped.requests", count=cap),
                          seen=ctx.say("capped.requests", count=len(endless.requests)))
    if len(last.requests) != cap:
        raise CheckFailed(ctx.say("capped.last_round", cap=cap), expected=ctx.say("capped.requests", count=cap),
                          seen=ctx.say("capped.requests", count=len(last.requests)))
    for task, at, key in ((exact, exact_at, "capped.budget_exact"), (over, over_at, "capped.budget_over"),
                          (spender, spent_at, "capped.budget_answered")):
        if len(task.requests) != at:
            raise CheckFailed(ctx.say(key, budget=budget, count=at), expected=ctx.say("capped.requests", count=at),
                              seen=ctx.say("capped.requests", count=len(task.requests)))
    request = need(ctx, after_tasks(turn), "capped.no_next", ran)
    got = results(request)
    for task, key in ((last, "capped.last_round"), (spender, "capped.budget_answered")):
        content = got.get(task.call_id, "")
        if task.answer not in content or is_error(content):
            raise CheckFailed(ctx.say(key, cap=cap, budget=budget, count=len(task.requests)),
                              expected=shown(task.answer, 120), seen=shown(got.get(task.call_id), 200))
    for task, key in ((endless, "capped.not_said_rounds"), (exact, "capped.not_said_budget"),
                      (over, "capped.not_said_budget"), (failing, "capped.not_said_failed")):
        content = got.get(task.call_id) or ""
        words = STOP_WORDS if task is not failing else FAIL_WORDS
        if not is_error(content) or not words.search(content):
            raise CheckFailed(ctx.say(key, cap=cap, budget=budget), seen=shown(content or "(empty)", 300))
    if turn.answer not in ran.result.stdout:
        raise CheckFailed(ctx.say("capped.parent_stopped"), expected=shown(turn.answer, 120),
                          seen=shown(ran.result.stdout[-300:], 300))


# --------------------------------------------------------------------------- 6

def test_lineage_logged(ctx):
    """Each subagent has a session log of its own whose first event names parent_session and parent_call, the parent's log names the subagent's session before the call's result, and a resumed parent sends none of the subagent's messages."""
    rng = ctx.rng("lineage-logged")
    ws = ctx.workspace("lineage")
    tasks = [draw_task(rng, k, ws, reads=1) for k in range(rng.randint(2, 3))]
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=rng.randint(0, 1), tasks=tasks)
    later = draw_turn(rng, rng.randint(0, 2), ws, reads=0)
    script = Script([turn, later])
    with FakeModelServer(model=script.model) as server:
        ran = run(ctx, "lineage", script, turn.prompt, ws=ws, tty=True, server=server)
        ctx.expect_ok(ran.result)
        for task in tasks:
            started(ctx, task, ran, script)
        tops = logs_in(ran.sessions)
        if len(tops) != 1:
            raise CheckFailed(ctx.say("lineage.among_sessions", count=len(tops)), seen=shown([p.name for p in tops], 300))
        parent = parent_log(ctx, ran)
        logs = all_logs(ran.sessions)
        for task in tasks:
            shared = [m for m in parent.messages() if (m.get("role") == "user" and task.prompt in message_text(m))
                      or any(str(c.get("id", "")).startswith(f"call_{task.tag}_") for c in m.get("tool_calls") or [])]
            if shared:
                raise CheckFailed(ctx.say("lineage.shared"), seen=shown([message_text(m)[:60] for m in shared], 200))
            # Everything of the parent's log but the calls' results (what the parent read is answer-only's)
            raw = "\n".join(json.dumps(e, ensure_ascii=False) for e in parent.events if not is_result(e, tasks))
            copied = [piece for piece in (f"{task.tag}f", f"call_{task.tag}_", f"Looking ({task.tag})") if piece in raw]
            if copied:
                at = raw.index(copied[0])
                raise CheckFailed(ctx.say("lineage.copied"), seen=shown(raw[max(0, at - 150):at + 100], 300))
            own = [log for log in logs if log.path != parent.path and any(
                m.get("role") == "user" and task.prompt in message_text(m) for m in log.messages())]
            if len(own) != 1:
                raise CheckFailed(ctx.say("lineage.no_child_log", count=len(own)),
                                  seen=shown([str(log.path.relative_to(ran.sessions)) for log in logs], 300))
            child = own[0]
            head = child.events[0] if child.events else {}
            want = {"seq": 1, "parent_session": parent.session, "parent_call": task.call_id}
            seen = {key: head.get(key) for key in want}
            if seen != want:
                raise CheckFailed(ctx.say("lineage.child_first"), expected=shown(want, 200), seen=shown(seen, 200))
            links = [e for e in parent.events if e.get("type") != "message" and child.session in str(e)
                     and task.call_id in str(e)]
            if not links:
                raise CheckFailed(ctx.say("lineage.parent_missing", session=child.session),
                                  seen=shown([e.get("type") for e in parent.events], 300))
            answered = result_seq(parent, task.call_id)
            if answered is None or not isinstance(links[0].get("seq"), int) or links[0]["seq"] > answered:
                raise CheckFailed(ctx.say("lineage.parent_late"), seen=shown([e.get("type") for e in parent.events], 300))
        last = need(ctx, after_tasks(turn), "lineage.no_next", ran)
        again = run(ctx, "lineage", script, later.prompt, ws=ws, sessions=ran.sessions, server=server, resume=True)
    ctx.expect_ok(again.result)
    resumed = need(ctx, later.requests, "lineage.no_resume", again)[0]
    want = [shape(m) for m in last.messages] + [("assistant", turn.answer, (), None), ("user", later.prompt, (), None)]
    if [shape(m) for m in resumed.messages] != want:
        raise CheckFailed(ctx.say("lineage.resume_differs"),
                          expected=shown([f"{s[0]}: {s[1][:30]}" for s in want], 400),
                          seen=shown([f"{m.get('role')}: {message_text(m)[:30]}" for m in resumed.messages], 400))


# --------------------------------------------------------------------------- 7

def test_cancel_child_keeps_parent(ctx):
    """Ctrl-C while a subagent waits for the model cancels the subagent alone, which sends no more requests, while the parent's turn goes on with a result saying the side task was cancelled."""
    rng = ctx.rng("cancel-child-keeps-parent")
    ws = ctx.workspace("cancel")
    task = draw_task(rng, rng.randint(0, 2), ws, reads=rng.randint(1, 2))
    task.gate_at, task.gate = len(task.rounds), Gate(timeout=ctx.scaled(SESSION_TIMEOUT))
    turn = draw_turn(rng, rng.randint(0, 2), ws, reads=rng.randint(0, 1), tasks=[task])
    script = Script([turn])
    sessions = ws.parent / "sessions"
    with FakeModelServer(model=script.model) as server:
        child = ctx.start_agent("--sessions-dir", str(sessions), turn.prompt, cwd=ws, extra_env=server.env(),
                                mock=False, tty=True)
        with child:
            reached = wait_until(lambda: task.gate.reached.is_set() or not child.running(), ctx.scaled(SESSION_TIMEOUT)) \
                and task.gate.reached.is_set()
            held = len(task.requests)
            if reached:
                time.sleep(0.1)  # the reply has begun: the subagent is reading its stream
                child.signal(signal.SIGINT)
                wait_until(lambda: after_tasks(turn) is not None or not child.running(), ctx.scaled(15))
                time.sleep(ctx.scaled(0.3))  # a subagent that went on would have asked again by now
                sent = len(task.requests)
            task.gate.open()
            try:
                result = child.wait(SESSION_TIMEOUT)
            except ChildTimeout as exc:
                result = exc.result
    said = result.stdout.replace("\r\n", "\n")
    if not reached:
        raise CheckFailed(ctx.say("cancel.never_reached", rounds=len(task.rounds) + 1, count=held),
                          seen=shown(said[-400:], 400))
    if sent > held:
        raise CheckFailed(ctx.say("cancel.child_went_on", count=sent - held), seen=shown(said[-400:], 400))
    request = after_tasks(turn)
    if request is None:
        raise CheckFailed(ctx.say("cancel.parent_stopped"), seen=shown(said[-400:], 400))
    content = results(request).get(task.call_id, "")
    if not is_error(content) or not CANCEL_WORDS.search(content) or (task.answer or "") in content:
        raise CheckFailed(ctx.say("cancel.not_said"), seen=shown(content or "(empty)", 300))
    problem = valid_chain(request.messages)
    if problem:
        raise CheckFailed(ctx.say("cancel.invalid_chain", problem=problem),
                          seen=shown([m.get("role") for m in request.messages if isinstance(m, dict)], 300))
    if turn.answer not in " ".join(said.split()):
        raise CheckFailed(ctx.say("cancel.no_answer"), expected=shown(turn.answer, 120), seen=shown(said[-400:], 400))
    if result.returncode != 0:
        raise CheckFailed(ctx.say("cancel.exit", status=result.returncode), seen=ctx.evidence(result))
