"""Day 12 checks: compaction, over a threshold, never splitting a round, honoured by replay.

The contract is shared/days/week-2.md, day 12. Every check but never-splits-a-round and
the first half of replay-honours-compacted runs the lab's agent as a real REPL process
(`python -m mca`, fed a dozen prompts and /compact on stdin) against the grader's fake
model server, which plays a conversation generated for the run (wire.py): prompts and
answers in plain English, in one other script and mixed, each round with a marker of its
own, the older ones reading files the check wrote; a request that continues none of its
prompts is a summary request, answered with a summary drawn for the run. The threshold and
K are set as a user sets them ($MCA_COMPACT_AT, $MCA_KEEP_ROUNDS); a check that is not about
the threshold sets one no session reaches and compacts with /compact.

Every draw holds the cases its check is about: a history exactly at the threshold and one
over it; rounds of one to three model rounds of one to three calls at every position, so
that a cut at any fixed number of messages lands inside one, K from 1 to 3, a history of
exactly K rounds and one of fewer; the system prompt, AGENTS.md and a recalled memory in
front; a summary longer than what it replaces, an empty one and nothing to cut; a session
compacted twice, resumed by a second process; generated logs whose compacted events sit
after tool rounds, after a memory, and after a summary that replaced only the one before.

keeps-system-and-instructions, bill-printed and the resuming process of
replay-honours-compacted run the agent on a pseudo-terminal of its own (the REPL's lines
typed at its prompts), as a person at a terminal runs it; the others, the harnesses and the
first process of replay-honours-compacted on pipes: every exercise point is judged both ways.
"""

from __future__ import annotations

import json
import re

from grader.checkkit import CheckFailed, provider
from grader.checkkit.fakeserver import FakeModelServer

from .wire import (Plan, Script, estimate, leading_system, marker, memory_records, need, plain_plans, run_session,
                   shown, size, summary_text, text_of, tool_plans, words)


def keep_env(keep: int, **more) -> dict:
    return {"MCA_KEEP_ROUNDS": str(keep), **more}


def said_lines(session) -> list[str]:
    return [line.strip() for line in session.turn.said.splitlines()]


def about_compaction(session) -> str:
    """What the agent said about compacting (the lines that name it), else the end of what it said."""
    lines = [line for line in said_lines(session) if "compact" in line.lower()]
    return shown("\n".join(lines), 400) if lines else shown(session.turn.said[-400:], 400)


def shape(message: dict) -> tuple:
    """What of a message the checks compare: its role, its text, the ids of its calls or result."""
    calls = tuple(str(c.get("id")) for c in message.get("tool_calls") or []) if isinstance(message, dict) else ()
    return (message.get("role"), text_of(message), calls, message.get("tool_call_id"))


def history_after(request, answer: str) -> list[dict]:
    """The history once the reply to `request` (a plain answer) is in: what the next turn resends."""
    return list(request.messages) + [{"role": "assistant", "content": answer}]


def context_files(ctx, rng, ws, name: str) -> tuple[str, list[str], dict]:
    """An AGENTS.md in the workdir and two memories in the user's memory file."""
    rules = f"{marker(rng, 'ins')} {words(rng, rng.randint(0, 2), (6, 14))}"
    (ws / "AGENTS.md").write_text(f"# Project rules\n\n{rules}\n", encoding="utf-8")
    memory = ctx.tmp(f"{name}-home") / ".notes" / "memory.jsonl"
    memories = memory_records(rng, memory)
    return rules, memories, {"MCA_USER_MEMORY": str(memory)}


# --------------------------------------------------------------------------- 1

def test_triggers_over_budget(ctx):
    """Before a turn, a history over MCA_COMPACT_AT tokens by day 8's estimate is compacted first, and one at or under it is not."""
    rng = ctx.rng("triggers-over-budget")
    keep = rng.randint(1, 2)
    # the last turn but one starts exactly at the threshold with K + 1 rounds behind it (so a
    # compaction at it would have something to cut), the last one over it
    plans = plain_plans(rng, keep + rng.randint(3, 4))
    prompts = [p.prompt for p in plans]
    # A first session, never compacted, gives the size of the history at the start of each turn.
    probe = run_session(ctx, "triggers-probe", Script(list(plans)), prompts,
                        workspace=ctx.workspace("triggers-probe"), env=keep_env(keep))
    sizes = turn_sizes(ctx, probe, plans)
    threshold = sizes[-2]  # the last turn but one starts exactly at it; the last one over it
    script = Script(list(plans), [summary_text(rng)])
    session = run_session(ctx, "triggers", script, prompts, workspace=ctx.workspace("triggers"),
                          env=keep_env(keep, MCA_COMPACT_AT=str(threshold)))
    sizes = turn_sizes(ctx, session, plans)  # judged on what this session sent itself
    asked = [session.index_of(r) for r in script.asked]
    for j, plan in enumerate(plans[1:], 1):
        at = session.index_of(need(ctx, session.turn_request(plan.prompt), "turn.missing", session, prompt=shown(plan.prompt, 60)))
        before = session.index_of(session.turn_request(plans[j - 1].prompt))
        summarised = any(before < a < at for a in asked)
        over = sizes[j - 1] > threshold
        if over and not summarised:
            raise CheckFailed(ctx.say("trigger.not_compacted", turn=j + 1, size=sizes[j - 1], threshold=threshold),
                              seen=about_compaction(session))
        if not over and (summarised or any(a < at for a in asked)):
            raise CheckFailed(ctx.say("trigger.too_early", turn=j + 1, size=sizes[j - 1], threshold=threshold),
                              seen=about_compaction(session))
        if over:
            break
    marks = [e for e in session.events() if e.get("type") == "compacted"]
    if len(marks) != 1:
        raise CheckFailed(ctx.say("trigger.no_event", count=len(marks)), seen=about_compaction(session))


def turn_sizes(ctx, session, plans: list[Plan]) -> list[int]:
    """The size of the history after each turn but the last, as this session sent it: the
    size at the start of the next turn."""
    out = []
    for plan in plans[:-1]:
        request = need(ctx, session.turn_request(plan.prompt), "turn.missing", session, prompt=shown(plan.prompt, 60))
        out.append(size(history_after(request, plan.answer)))
    return out


# --------------------------------------------------------------------------- 2

CUT = """
from harnesskit import answer, report, run

def main(job):
    from mca.context.compact import choose_cut
    for case in job["cases"]:
        report(answer(lambda: {"cut": choose_cut(case["history"], case["keep"])}))

run(main)
"""

MAX_COUNT = 16  # every fixed number of kept messages up to this lands inside a round in some case


def draw_round(rng, tool_rounds: int, calls: tuple[int, int] = (1, 4)) -> list[dict]:
    tag = marker(rng, "c")
    out = [{"role": "user", "content": f"{tag} {words(rng, rng.randint(0, 2), (2, 8))}"}]
    for r in range(tool_rounds):
        made = [{"id": f"call_{tag}_{r}_{c}", "name": rng.choice(["read_file", "grep", "list_dir", "run_command"]),
                 "args": {"path": f"{tag}_{c}.py"}} for c in range(rng.randint(*calls))]
        out.append({"role": "assistant", "content": rng.choice(["", f"Looking ({tag})."]), "tool_calls": made})
        out += [{"role": "tool", "tool_call_id": c["id"], "content": words(rng, k, (2, 10))} for k, c in enumerate(made)]
    out.append({"role": "assistant", "content": words(rng, 1, (2, 12))})
    return out


def draw_history(rng, rounds: list[list[dict]]) -> list[dict]:
    prefix = [{"role": "system", "content": "You are mca, a small coding agent."}]
    prefix += [{"role": "system", "content": f"[instructions] {words(rng, 0, (3, 6))}"}] * rng.randint(0, 1)
    prefix += [{"role": "system", "content": f"[memory: 1 note] {words(rng, 1, (3, 6))}"}] * rng.randint(0, 1)
    return prefix + [m for r in rounds for m in r]


def expected_cut(history: list[dict], keep: int) -> int | None:
    """The sheet's cut: where the K-th last round starts (a user message after the system messages)."""
    start = len(leading_system(history))
    starts = [i for i in range(start, len(history)) if history[i]["role"] == "user"]
    if len(starts) <= keep:
        return None
    return starts[len(starts) - keep] if keep else len(history)


def cut_cases(rng) -> list[dict]:
    """Histories of long and short rounds at every position; for every K and every count of
    kept messages up to MAX_COUNT, one whose message at that count from the end is a tool
    result (a cut there separates it from its call), and one with K rounds exactly and fewer."""
    cases = []
    missing = {(k, c) for k in (1, 2, 3) for c in range(2, MAX_COUNT + 1)}
    for _ in range(40):
        keep = rng.randint(1, 3)
        rounds = [draw_round(rng, rng.choice([0, 0, 1, 2, 3])) for _ in range(rng.randint(keep + 1, keep + 4))]
        history = draw_history(rng, rounds)
        covered = {(keep, c) for c in range(2, MAX_COUNT + 1) if c < len(history) and history[-c]["role"] == "tool"}
        if covered & missing or rng.random() < 0.15:
            cases.append({"history": history, "keep": keep})
            missing -= covered
    for keep, count in sorted(missing):  # the counts no random history covered: a long last round
        rounds = [draw_round(rng, rng.randint(0, 2)) for _ in range(keep)]
        rounds.append(draw_round(rng, 1, (count - 1, count + 1)))
        cases.append({"history": draw_history(rng, rounds), "keep": keep})
    for keep in (1, 2, 3):  # nothing older than the last K rounds: K rounds, and fewer
        cases.append({"history": draw_history(rng, [draw_round(rng, rng.randint(1, 3)) for _ in range(keep)]), "keep": keep})
    cases.append({"history": draw_history(rng, [draw_round(rng, 2)] * 0), "keep": 1})
    # K = 0 keeps no round: everything after the prefix is summarised (the end of the history),
    # and a history of no round has nothing to cut
    cases.append({"history": draw_history(rng, [draw_round(rng, rng.randint(0, 2)) for _ in range(rng.randint(2, 4))]),
                  "keep": 0})
    cases.append({"history": draw_history(rng, []), "keep": 0})
    rng.shuffle(cases)
    return cases


def describe_cut(history: list[dict], cut) -> str:
    if not isinstance(cut, int) or isinstance(cut, bool) or not 0 <= cut <= len(history):
        return f"cut {cut!r}"
    at = history[cut] if cut < len(history) else {"role": "(end)"}
    return f"cut {cut}, before a {at['role']} message"


def test_never_splits_a_round(ctx):
    """choose_cut() cuts only where a round starts, after the system messages, so the last K rounds are kept whole and no tool call is ever separated from its results."""
    rng = ctx.rng("never-splits-a-round")
    cases = cut_cases(rng)
    answers = ctx.harness_answers("cut", {"cases": cases}, count=len(cases), calls="choose_cut()", code=CUT)
    for case, got in zip(cases, answers):
        history, keep = case["history"], case["keep"]
        rounds = sum(1 for m in history if m["role"] == "user")
        problem = ctx.harness_problem(got, "choose_cut()", on=ctx.say("cut.on", messages=len(history), rounds=rounds, keep=keep))
        if problem:
            raise problem
        want, cut = expected_cut(history, keep), got.get("cut")
        if cut == want and type(cut) is type(want):
            continue
        key = "cut.nothing" if want is None else "cut.split" if isinstance(cut, int) and 0 < cut < len(history) \
            and history[cut]["role"] == "tool" else "cut.wrong"
        raise CheckFailed(ctx.say(key, messages=len(history), rounds=rounds, keep=keep),
                          expected=ctx.say("cut.none") if want is None else describe_cut(history, want),
                          seen=describe_cut(history, cut) + ": " + " ".join(m["role"][0] for m in history))


# --------------------------------------------------------------------------- 3, 7: a session with context in front

def context_session(ctx, name: str, rng, *, probe: bool = True, kept_tools: bool = False, tty: bool = False):
    """AGENTS.md and memory in front; older rounds with tools and without (shuffled), then K
    rounds (`kept_tools`: the first of them reads files too), then /compact and a probe
    (`tty`: on a terminal of its own)."""
    ws = ctx.workspace(name)
    rules, memories, env = context_files(ctx, rng, ws, name)
    keep = rng.randint(1, 3)
    older = tool_plans(rng, rng.randint(2, 3), ws) + plain_plans(rng, rng.randint(1, 2))
    rng.shuffle(older)
    kept = (tool_plans(rng, 1, ws, (80, 120)) + plain_plans(rng, keep - 1, (8, 20))) if kept_tools else plain_plans(rng, keep, (8, 20))
    asked = plain_plans(rng, 1, (3, 8))[0]
    script = Script(older + kept + [asked], [summary_text(rng)])
    lines = [p.prompt for p in older + kept] + ["/compact"] + ([asked.prompt] if probe else [])
    session = run_session(ctx, name, script, lines, workspace=ws, env=keep_env(keep, **env), tty=tty)
    return session, script, older, kept, asked, rules, memories


def test_keeps_system_and_instructions(ctx):
    """After a compaction the next request starts with the system prompt, the project's instructions and the recalled memory exactly as before, then the summary, then the last K rounds as they were sent."""
    rng = ctx.rng("keeps-system-and-instructions")
    # on a terminal of its own, each line typed at its prompt, as a person works (the other checks: on pipes)
    session, script, older, kept, asked, rules, memories = context_session(ctx, "keeps", rng, kept_tools=True,
                                                                           tty=True)
    first = need(ctx, session.turn_request(older[0].prompt), "turn.missing", session, prompt=shown(older[0].prompt, 60))
    probe = need(ctx, session.turn_request(asked.prompt), "turn.missing", session, prompt=shown(asked.prompt, 60))
    need(ctx, script.asked or None, "keeps.no_summary", session)
    last = session.requests[session.index_of(script.asked[0]) - 1]  # the history as /compact found it
    lead = leading_system(first.messages)
    if not all(any(t in text_of(m) for m in lead) for t in [rules] + memories):
        raise CheckFailed(ctx.say("keeps.no_context"), seen=shown([text_of(m) for m in first.messages[:4]], 300))
    sent = probe.messages
    if [shape(m) for m in sent[:len(lead)]] != [shape(m) for m in lead]:
        raise CheckFailed(ctx.say("keeps.prefix_changed"), expected=shown([text_of(m) for m in lead], 300),
                          seen=shown([text_of(m) for m in sent[:len(lead) + 1]], 300))
    if not script.served or len(sent) <= len(lead) + 1 or script.served[0] not in text_of(sent[len(lead)]):
        raise CheckFailed(ctx.say("keeps.no_summary"), seen=shown([text_of(m) for m in sent[len(lead):len(lead) + 2]], 300))
    kept_messages = sum(2 + sum(1 + len(calls) for calls in plan.rounds) for plan in kept)
    want = history_after(last, kept[-1].answer)[-kept_messages:]
    got = sent[len(lead) + 1:-1]
    if [shape(m) for m in got] != [shape(m) for m in want]:
        raise CheckFailed(ctx.say("keeps.rounds_changed", keep=len(kept)), expected=shown([text_of(m) for m in want], 300),
                          seen=shown([text_of(m) for m in got], 300))
    body = json.dumps(probe.json, ensure_ascii=False)
    for plan in older:
        if plan.tag in body:
            raise CheckFailed(ctx.say("keeps.older_left", tag=plan.tag), seen=shown(body, 300))


# --------------------------------------------------------------------------- 4, 8: a plain session

def plain_session(ctx, name: str, rng, tty: bool = False):
    """Plain rounds (no tools), K kept, /compact, a probe: every size exact (`tty`: on a terminal)."""
    ws = ctx.workspace(name)
    keep = rng.randint(1, 3)
    older = plain_plans(rng, rng.randint(2, 4))
    kept = plain_plans(rng, keep, (10, 30))
    asked = plain_plans(rng, 1, (3, 8))[0]
    script = Script(older + kept + [asked], [summary_text(rng)])
    lines = [p.prompt for p in older + kept] + ["/compact", asked.prompt]
    session = run_session(ctx, name, script, lines, workspace=ws, env=keep_env(keep), tty=tty)
    return session, script, older, kept, asked


def compaction_facts(ctx, session, script, older, kept, asked) -> dict:
    """What the sheet says the compaction must have been, from what was sent and logged."""
    last = need(ctx, session.turn_request(kept[-1].prompt), "turn.missing", session, prompt=shown(kept[-1].prompt, 60))
    probe = need(ctx, session.turn_request(asked.prompt), "turn.missing", session, prompt=shown(asked.prompt, 60))
    events = session.events()
    messages = [e for e in events if e.get("type") == "message" and isinstance(e.get("message"), dict)]
    first_kept = next((k for k, e in enumerate(messages) if e["message"].get("role") == "user"
                       and text_of(e["message"]) == kept[0].prompt), None)
    if first_kept is None or first_kept == 0:
        raise CheckFailed(ctx.say("event.no_messages"), seen=shown([e.get("type") for e in events], 300))
    lead = len(leading_system(probe.messages))
    return {"before": size(history_after(last, kept[-1].answer)), "after": size(probe.messages[:-1]),
            "upto": messages[first_kept - 1]["seq"], "summary": text_of(probe.messages[lead]) if len(probe.messages) > lead else "",
            "summarised": 2 * len(older), "probe": probe, "events": events,
            "probe_seq": next((e["seq"] for e in messages if text_of(e["message"]) == asked.prompt), None)}


def test_compacted_event_logged(ctx):
    """A compaction logs one compacted event before the next message, holding the summary, the seq of the last message it replaces as upto_seq, and the history's size before and after."""
    rng = ctx.rng("compacted-event-logged")
    session, script, older, kept, asked = plain_session(ctx, "event", rng)
    facts = compaction_facts(ctx, session, script, older, kept, asked)
    marks = [e for e in facts["events"] if e.get("type") == "compacted"]
    if len(marks) != 1:
        raise CheckFailed(ctx.say("event.count", count=len(marks)), seen=shown([e.get("type") for e in facts["events"]], 300))
    mark = marks[0]
    served = script.served[0] if script.served else ""
    if not isinstance(mark.get("summary"), str) or served not in mark["summary"] or mark["summary"] != facts["summary"]:
        raise CheckFailed(ctx.say("event.summary"), expected=shown(facts["summary"], 200), seen=shown(mark.get("summary"), 200))
    if mark.get("upto_seq") != facts["upto"]:
        raise CheckFailed(ctx.say("event.upto", keep=len(kept)), expected=f"upto_seq {facts['upto']}",
                          seen=f"upto_seq {mark.get('upto_seq')!r}")
    if (mark.get("before"), mark.get("after")) != (facts["before"], facts["after"]):
        raise CheckFailed(ctx.say("event.sizes"), expected=f"before {facts['before']}, after {facts['after']}",
                          seen=f"before {mark.get('before')!r}, after {mark.get('after')!r}")
    if facts["probe_seq"] is None or not isinstance(mark.get("seq"), int) or not mark["seq"] < facts["probe_seq"]:
        raise CheckFailed(ctx.say("event.order"), seen=shown([e.get("type") for e in facts["events"]], 300))


# --------------------------------------------------------------------------- 5

REPLAY = """
from harnesskit import answer, report, run

def main(job):
    from mca.session import read_events
    from mca.session.replay import replay
    for path in job["paths"]:
        report(answer(lambda: {"messages": replay(read_events(path).events).messages}))

run(main)
"""

HEADER = "[summary of the earlier conversation, written when it was compacted]\n"


def log_case(rng, twice: bool, only_summary: bool, keep_none: bool = False) -> tuple[list[dict], list[dict]]:
    """A session log with one or two compactions, and the history the sheet's replay gives.
    `keep_none`: the first compaction kept no round (K = 0: upto_seq is the last message then,
    `kept` 0), and rounds followed it."""
    events: list[dict] = []
    seq = 0

    def add(kind: str, **fields):
        nonlocal seq
        seq += 1
        events.append({"seq": seq, "ts": f"2026-01-0{1 + seq % 9}T10:{seq % 60:02d}:00.000Z", "type": kind, **fields})
        return seq

    def message(m: dict) -> int:
        return add("message", message=m)

    def rounds(n: int) -> list[int]:
        seqs = []
        for _ in range(n):
            for m in draw_round(rng, rng.choice([0, 1, 2])):
                seqs.append(message(m))
                if m["role"] == "assistant":
                    add("usage", input_tokens=rng.randint(10, 900), output_tokens=rng.randint(1, 90))
                if m["role"] == "tool":
                    add("tool_end", id=m["tool_call_id"], name="read_file", ok=True, ms=3, chars=len(m["content"]), truncated=False, blocked_by=None)
        return seqs

    live: list[tuple[int, dict]] = []  # the history as the writing process held it, with seqs
    prefix = [{"role": "system", "content": "You are mca, a small coding agent."}]
    message(prefix[0])
    if rng.random() < 0.7:
        add("recalled", ids=["m-1"], left_out=0, chars=20, tokens=5)
        prefix.append({"role": "system", "content": f"[memory: 1 note]\n- {words(rng, 0, (3, 6))}"})
        message(prefix[-1])
    add(rng.choice(["note", "checkpoint"]), text=words(rng, 2, (2, 5)))  # a type this version may not know

    def compaction(keep_from: int) -> None:
        """Summarise the live messages before index keep_from (after the prefix)."""
        nonlocal live
        kept = live[keep_from:]
        upto = [s for s, _ in live[:keep_from]][-1]
        summary = HEADER + f"{marker(rng, 's')} {words(rng, rng.randint(0, 2), (6, 14))}"
        add("compacted", upto_seq=upto, summary=summary, messages=keep_from, kept=len(kept), chars=len(summary),
            tokens=estimate(summary), before=999, after=99)
        live = [(upto, {"role": "user", "content": summary})] + kept

    seqs = rounds(rng.randint(2, 4))
    live = [(s, e["message"]) for s in seqs for e in events if e["seq"] == s]
    starts = [k for k, (_, m) in enumerate(live) if m["role"] == "user"]
    compaction(len(live) if keep_none else starts[rng.randint(1, len(starts) - 1)])
    more = rounds(rng.randint(1, 3))
    live += [(s, e["message"]) for s in more for e in events if e["seq"] == s]
    if twice:
        starts = [k for k, (_, m) in enumerate(live) if m["role"] == "user"]
        # the second summary replaces the first and, unless only_summary, some rounds after it
        compaction(starts[1] if only_summary else starts[rng.randint(2, len(starts) - 1)])
        live += [(s, e["message"]) for s in rounds(1) for e in events if e["seq"] == s]
    return events, prefix + [m for _, m in live]


def test_replay_honours_compacted(ctx):
    """A second process that resumes a compacted session sends the compacted history (the system messages, the summary, the messages logged after upto_seq), not the messages the summary replaced."""
    rng = ctx.rng("replay-honours-compacted")
    # First, replay() itself, on generated logs: once, twice, twice with the second summary
    # replacing only the first, once with K = 0 (nothing kept: `kept` is 0).
    from grader.checkkit.logshape import encode
    logs = ctx.tmp("replay-logs")
    paths, wants = [], []
    cases = [(False, False, False), (True, False, False), (True, True, False), (False, False, True)]
    for n, (twice, only, none) in enumerate(cases):
        events, want = log_case(rng, twice, only, none)
        path = logs / f"log{n}.jsonl"
        path.write_bytes(b"".join(encode(e) for e in events))
        paths.append(str(path))
        wants.append(want)
    answers = ctx.harness_answers("replay", {"paths": paths}, count=len(paths), calls="replay()", code=REPLAY)
    for n, (got, want) in enumerate(zip(answers, wants)):
        count = 2 if cases[n][0] else 1
        problem = ctx.harness_problem(got, "replay()", on=ctx.say("replay.on", count=count))
        if problem:
            raise problem
        if got.get("messages") != want:
            raise CheckFailed(ctx.say("replay.wrong", count=count),
                              expected=shown([text_of(m)[:40] for m in want], 400),
                              seen=shown([text_of(m)[:40] for m in got.get("messages") or []], 400))
    # Then two processes: one compacts twice and leaves, the second resumes.
    ws = ctx.workspace("replay")
    rules, memories, env = context_files(ctx, rng, ws, "replay")
    keep = rng.randint(1, 2)
    first, second = tool_plans(rng, 2, ws) + plain_plans(rng, keep), plain_plans(rng, keep + 1)
    probes = plain_plans(rng, 2, (3, 8))
    script = Script(first + second + probes, [summary_text(rng), summary_text(rng)])
    lines = [p.prompt for p in first] + ["/compact"] + [p.prompt for p in second] + ["/compact", probes[0].prompt]
    with FakeModelServer(model=script.model) as server:
        one = run_session(ctx, "replay", script, lines, workspace=ws, env=keep_env(keep, **env), server=server)
        # the second process on a terminal of its own, as a person resumes (replay() above: on pipes)
        two = run_session(ctx, "replay", script, [], workspace=ws, sessions=one.turn.sessions,
                          env=keep_env(keep, **env), server=server, resume=True, prompt=probes[1].prompt, tty=True)
    r1 = need(ctx, one.turn_request(probes[0].prompt), "turn.missing", one, prompt=shown(probes[0].prompt, 60))
    r2 = need(ctx, two.turn_request(probes[1].prompt), "resume.no_request", two)
    want = [shape(m) for m in r1.messages] + [("assistant", probes[0].answer, (), None), shape(r2.messages[-1])]
    if [shape(m) for m in r2.messages] != want:
        compacted = any(e.get("type") == "compacted" for e in one.events())
        raise CheckFailed(ctx.say("resume.differs" if compacted else "resume.differs_uncompacted"),
                          expected=shown([text_of(m)[:30] for m in r1.messages] + ["…", probes[1].prompt[:30]], 400),
                          seen=shown([text_of(m)[:30] for m in r2.messages], 400))


# --------------------------------------------------------------------------- 6

def test_no_useless_compaction(ctx):
    """A compaction that would not make the history smaller is not done, logged or sent, and a line says why, while one that does make it smaller is done."""
    rng = ctx.rng("no-useless-compaction")
    ws = ctx.workspace("useless")
    keep = rng.randint(1, 2)
    # The oldest round in plain English, every later one in one other script: the summary that
    # must not be used is wide (more tokens than the round it replaces, fewer characters), and
    # the one that must be used is narrow (fewer tokens than what it replaces, more characters),
    # so only day 8's estimate tells them apart.
    oldest = plain_plans(rng, 1, (40, 60), voice=0)[0]
    first = [oldest] + plain_plans(rng, keep - 1, (4, 10), voice=1)
    later = plain_plans(rng, 3, (60, 90), voice=1)
    asked = plain_plans(rng, 1, (3, 8))[0]
    round_chars = len(oldest.prompt) + len(oldest.answer)
    round_tokens = estimate(oldest.prompt) + estimate(oldest.answer)
    huge = marker(rng, "s") + " "
    while estimate(huge) <= round_tokens * 3 // 2 + 40:
        huge += words(rng, 1, (4, 8))
    older_chars = sum(len(p.prompt) + len(p.answer) for p in (first + later)[:len(first + later) - keep])
    small = marker(rng, "s")
    while len(small) <= older_chars + 40:
        small += " " + words(rng, 0, (6, 12))
    older_tokens = sum(estimate(p.prompt) + estimate(p.answer) for p in (first + later)[:len(first + later) - keep])
    assert len(huge) < round_chars and estimate(small) + 40 < older_tokens, "the draw must tell tokens from characters"
    script = Script(first + later + [asked], [huge, "", small])
    lines = [p.prompt for p in first] + ["/compact", later[0].prompt, "/compact", later[1].prompt, "/compact",
                                         later[2].prompt, "/compact", asked.prompt]
    session = run_session(ctx, "useless", script, lines, workspace=ws, env=keep_env(keep))
    index = {p.tag: session.index_of(need(ctx, session.turn_request(p.prompt), "turn.missing", session,
                                          prompt=shown(p.prompt, 60))) for p in first + later + [asked]}
    asked_at = [session.index_of(r) for r in script.asked]
    if any(a < index[later[0].tag] for a in asked_at):
        raise CheckFailed(ctx.say("useless.asked_nothing", keep=keep), seen=about_compaction(session))
    for plan, what in ((later[1], "useless.bigger"), (later[2], "useless.empty")):
        body = json.dumps(session.requests[index[plan.tag]].json, ensure_ascii=False)
        if oldest.tag not in body or huge.split()[0] in body:
            raise CheckFailed(ctx.say(what), seen=shown([text_of(m)[:40] for m in session.requests[index[plan.tag]].messages], 300))
    body = json.dumps(session.requests[index[asked.tag]].json, ensure_ascii=False)
    if small.split()[0] not in body or oldest.tag in body:
        raise CheckFailed(ctx.say("useless.not_done"), seen=shown([text_of(m)[:40] for m in session.requests[index[asked.tag]].messages], 300))
    marks = [e for e in session.events() if e.get("type") == "compacted"]
    if len(marks) != 1 or small.split()[0] not in str(marks[0].get("summary")):
        raise CheckFailed(ctx.say("useless.logged", count=len(marks)), seen=shown([str(m.get("summary"))[:60] for m in marks], 300))
    why = [line for line in said_lines(session) if "compact" in line.lower() and not line.startswith("compacted:")]
    if len(why) < 3:
        raise CheckFailed(ctx.say("useless.silent", count=len(why)), seen=about_compaction(session))


# --------------------------------------------------------------------------- 7

def test_summary_request_shape(ctx):
    """The summary is asked for in a request of its own, offering no tools, that holds every message of the older rounds and nothing of the kept rounds, the instructions or the memory."""
    rng = ctx.rng("summary-request-shape")
    session, script, older, kept, asked, rules, memories = context_session(ctx, "shape", rng)
    if len(script.asked) != 1:
        raise CheckFailed(ctx.say("shape.count", count=len(script.asked)), seen=about_compaction(session))
    request = script.asked[0]
    body = request.json if isinstance(request.json, dict) else {}
    if body.get("tools"):
        raise CheckFailed(ctx.say("shape.tools"), seen=shown([t.get("function", {}).get("name") for t in body["tools"]
                                                               if isinstance(t, dict)], 200))
    if request.model != provider.model():
        raise CheckFailed(ctx.say("shape.model"), expected=provider.model(), seen=str(request.model))
    text = json.dumps(body, ensure_ascii=False)
    for plan in older:
        needed = [f"{plan.tag} ", f"{plan.tag}q", f"{plan.tag}a", f"{plan.tag}z"]  # each text's first and last words
        for r, calls in enumerate(plan.rounds):
            for c in range(len(calls)):
                needed += [f"{plan.tag}_{r}_{c}", f"{plan.tag}f{r}{c}", f"{plan.tag}e{r}{c}"]  # the call, its result
        lost = [piece for piece in needed if piece not in text]
        if lost:
            raise CheckFailed(ctx.say("shape.lost", what=lost[0]), seen=shown(text, 400))
    for plan in kept:
        if plan.tag in text:
            raise CheckFailed(ctx.say("shape.kept_sent", tag=plan.tag), seen=shown(text, 400))
    for piece, what in [(rules.split()[0], ctx.say("shape.rules"))] + [(m.split()[0], ctx.say("shape.memory"))
                                                                        for m in memories]:
        if piece in text:
            raise CheckFailed(ctx.say("shape.prefix_sent", what=what), seen=shown(text, 400))


# --------------------------------------------------------------------------- 8

BILL = re.compile(r"^compacted: (\d+) messages up to seq (\d+) into a summary of (\d+) chars ≈ (\d+) tokens; "
                  r"context ≈ (\d+) -> (\d+) tokens$")
BILL_FORM = "compacted: {} messages up to seq {} into a summary of {} chars ≈ {} tokens; context ≈ {} -> {} tokens"


def test_bill_printed(ctx):
    """A compaction prints one line `compacted: N messages up to seq S into a summary of C chars ≈ T tokens; context ≈ B -> A tokens`, every figure exact by day 8's estimate."""
    rng = ctx.rng("bill-printed")
    session, script, older, kept, asked = plain_session(ctx, "bill", rng, tty=True)  # the bill a person sees
    facts = compaction_facts(ctx, session, script, older, kept, asked)
    summary = facts["summary"]
    if not script.served or script.served[0] not in summary:  # no compaction: no figures to expect
        raise CheckFailed(ctx.say("bill.no_compaction"),
                          seen=shown("\n".join(l for l in said_lines(session) if "compact" in l.lower())
                                     or session.turn.said, 300))
    want = (facts["summarised"], facts["upto"], len(summary), estimate(summary), facts["before"], facts["after"])
    bills = [tuple(int(x) for x in m.groups()) for m in map(BILL.match, said_lines(session)) if m]
    if bills != [want]:
        raise CheckFailed(ctx.say("bill.line"), expected=BILL_FORM.format(*want),
                          seen=shown("; ".join(BILL_FORM.format(*b) for b in bills) or
                                     "\n".join(l for l in said_lines(session) if "compact" in l.lower()) or
                                     session.turn.said, 300))
