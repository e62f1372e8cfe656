"""Day 07 bonus checks (reported as `bonus N/M`; collected through checks.py).

Each rests on the exercise points course.toml lists for it; the human side of
recovery (the resume banner, recovery forks, a second writer) is proven here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.checkkit import CheckFailed, wait_until
from grader.checkkit import logdamage, loggen
from grader.checkkit.children import said
from grader.checkkit.fakeserver import FakeModelServer, SSEStream, reply_status, reply_stream
from grader.checkkit.sessionlog import chain_problem, described, logs_in, names, parse_lines, read_lines, shapes

from .calls import call, new_logs, scratch_with
from .live import (ROUND1, ROUND1_SHAPE, WAIT_TIMEOUT, history_problem, kill_during_tests, model_server, only_log,
                   workspace)

__all__ = ["test_resume_unknown_id", "test_damaged_then_continue", "test_dangling_tool_call",
           "test_unknown_type_tolerated", "test_append_is_incremental", "test_single_writer",
           "test_errors_recorded", "test_missing_line", "test_model_frozen"]


def test_resume_unknown_id(ctx):
    """Resuming an unknown id exits with status 1, names the id and the sessions dir, and creates nothing."""
    ws, sessions = workspace(ctx, "resume-unknown-id")
    before = sorted(p.name for p in ws.parent.rglob("*"))
    unknown = f"s-2099{ctx.rng('unknown').randrange(10**4):04d}-000000-{ctx.rng('hex').randrange(16**4):04x}"
    result = ctx.run_agent("--yes", "--sessions-dir", str(sessions), "--resume", unknown, "hi", cwd=ws)
    if result.returncode != 1:
        raise CheckFailed(ctx.say("bonus.unknown_status", status=result.returncode), seen=ctx.evidence(result))
    text = said(result)
    if unknown not in text or str(sessions) not in text:
        raise CheckFailed(ctx.say("bonus.unknown_silent", session_id=unknown, sessions=sessions, said=text[:300]))
    made = sorted(set(p.name for p in ws.parent.rglob("*")) - set(before))
    if made:
        raise CheckFailed(ctx.say("bonus.unknown_created", made=", ".join(made)))


def test_damaged_then_continue(ctx):
    """After a torn tail, resume reports the stop line and keeps working from the last valid point, sending that history once."""
    say = ctx.say
    rng = ctx.rng("damaged-then-continue")
    ws, sessions = workspace(ctx, "damaged-then-continue")
    with model_server() as server:
        # The session was made against the grader's server, so resuming it talks to the
        # server again (its model is frozen in the log) and every request can be read.
        model = f"grader-model-{rng.randrange(10**6)}"
        config = {"gateway": "openai-compatible", "model": model, "base_url": server.base_url}
        # Torn in the assistant message that starts round 2's first tool round: the last valid
        # point before it is the user's request (a fork point), so the recovery fork is made by
        # the lab's fork() from a damaged parent. (A recovery at the end of a tool round is made
        # by provided code, tested with the kit: tests/session.)
        torn = logdamage.torn_tail(loggen.round1_log(rng, config=config, next_round_started=True), rng,
                                   inside_char=True)
        damaged = torn.write(sessions)
        env = server.env(model=model)
        first = ctx.run_agent("--yes", "--resume", torn.session_id, "--sessions-dir", str(sessions), "hi", cwd=ws,
                              extra_env=env, mock=False)
        first_requests = server.requests
        after_first = {path: path.read_bytes() for path in logs_in(sessions)}
        second = None
        if first.returncode == 0:
            second = ctx.run_agent("--yes", "--resume", "--sessions-dir", str(sessions), "hi again", cwd=ws,
                                   extra_env=env, mock=False)
        second_requests = server.requests[len(first_requests):]
    if first.returncode != 0:
        raise CheckFailed(say("bonus.damaged_failed", command=first.short_command(), status=first.returncode),
                          seen=ctx.evidence(first))
    if not re.search(rf"\bline {torn.stopped_at}\b", said(first)):
        raise CheckFailed(say("bonus.damaged_silent", line=torn.stopped_at, said=said(first)[:300]))
    point = max(seq for seq in torn.source.recovery_points if seq < torn.stopped_at)
    if after_first.get(damaged) != torn.data:
        raise _changed(ctx, "bonus.damaged_changed", torn.data, after_first.get(damaged), point, reader=True,
                       torn=True)
    made = [path for path in after_first if path != damaged]
    if len(made) != 1:
        raise CheckFailed(say("bonus.damaged_no_fork", made=names(made)))
    recovery, kept = made[0], after_first[made[0]]
    lines = parse_lines(kept)
    _expect_recovery_at(ctx, lines, point, torn.data, "bonus.damaged_point")
    # What the model was sent: the history up to the fork point, once, then "hi".
    logged = [e["message"] for e in torn.source.events if e["type"] == "message" and e["seq"] <= point]
    why = history_problem(say, first_requests[0], logged, "hi", say("what.recovered_history")) if first_requests \
        else say("resume.no_request")
    if why:
        raise CheckFailed(say("bonus.damaged_history", prompt="hi", why=why))
    if second.returncode != 0:
        raise CheckFailed(say("bonus.damaged_failed", command=second.short_command(), status=second.returncode),
                          seen=ctx.evidence(second))
    now = recovery.read_bytes() if recovery.is_file() else b""
    asked = [line for line in parse_lines(now) if line.message.get("content") == "hi again"]
    if not now.startswith(kept) or len(now) == len(kept) or not asked:
        seen = (say("brief.events_changed") if not now.startswith(kept)
                else say("brief.did_not_grow", names=names(logs_in(sessions))))
        raise CheckFailed(say("bonus.damaged_lost", session=recovery.stem, seen=seen))
    logged = [line.message for line in lines if line.data and line.data.get("type") == "message"]
    why = history_problem(say, second_requests[0], logged, "hi again", say("what.recovery_session")) \
        if second_requests else say("resume.no_request")
    if why:
        raise CheckFailed(say("bonus.damaged_history", prompt="hi again", why=why))
    if not damaged.is_file() or damaged.read_bytes() != torn.data:
        raise _changed(ctx, "bonus.damaged_changed", torn.data, damaged.read_bytes() if damaged.is_file() else None,
                       point, reader=True, torn=True)


def test_dangling_tool_call(ctx):
    """Killed while a tool ran, the session resumes from the last fork point and never sends a tool call without its result."""
    say = ctx.say
    killed = kill_during_tests(ctx, "dangling-tool-call")
    if [line.kind for line in killed.after] != ROUND1_SHAPE[:4]:
        raise CheckFailed(say("bonus.killed_empty", seen=described(killed.after)))
    log = logs_in(killed.sessions)[0]
    before = log.read_bytes()
    result = ctx.run_agent("--yes", "--resume", log.stem, "--sessions-dir", str(killed.sessions), "hi",
                           cwd=killed.workspace)
    if result.returncode != 0:
        raise CheckFailed(say("bonus.dangling_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    if not log.is_file() or log.read_bytes() != before:
        raise _changed(ctx, "bonus.dangling_changed", before, log.read_bytes() if log.is_file() else None, 2)
    made = new_logs(killed.sessions, {log})
    if len(made) != 1:
        raise CheckFailed(say("bonus.dangling_no_fork", made=names(made)))
    lines = read_lines(made[0])
    same = [(line.data or {}).get("seq") for line in lines[:2]] == [1, 2] and \
        [line.message for line in lines[:2]] == [line.message for line in killed.after[:2]]
    if not same or any(line.message.get("tool_calls") for line in lines[:3]):
        raise CheckFailed(say("bonus.dangling_prefix", seen=say("brief.it_holds", shapes=shapes(lines))))
    problem = chain_problem([line.message for line in lines if line.message])
    if problem:
        raise CheckFailed(say("bonus.dangling_call", problem=problem))
    _expect_recovery_at(ctx, lines, 2, before, "bonus.dangling_point")


def test_unknown_type_tolerated(ctx):
    """An event of a type the code does not know is kept by the reader, does not stop it, and replays as skipped."""
    rng = ctx.rng("unknown-type-tolerated")
    logs = [loggen.round1_log(rng, unknown=True), loggen.two_round_log(rng, unknown=True)]
    root = scratch_with(ctx, "unknown-type-tolerated", *logs)
    paths = [str(root / ".sessions" / log.file_name) for log in logs]
    for log, answer in zip(logs, call(ctx, "read_and_replay", paths, "unknown-type")):
        problem = ctx.harness_problem(answer, ctx.say("what.read_or_replay"), ctx.say("what.unknown_type_log"))
        if problem:
            raise problem
        seen = {k: answer.get(k) for k in ("events", "stopped_at", "replayed", "skipped")}
        wanted = {"events": len(log.events), "stopped_at": None, "replayed": log.replayed, "skipped": log.skipped}
        if seen != wanted:
            raise CheckFailed(ctx.say("bonus.unknown_type", expected=wanted, seen=seen))


def test_append_is_incremental(ctx):
    """Appending to a long log writes one line's bytes, not the whole file."""
    root = ctx.tmp("append-is-incremental")
    log = root / "s-20260101-000000-0000.jsonl"
    line = '{"seq": %d, "ts": "2026-01-01T00:00:00.000Z", "type": "usage", "input_tokens": 1, "output_tokens": 1}\n'
    body = "".join(line % seq for seq in range(1, 10_001)).encode("utf-8")
    log.write_bytes(body)
    report = ctx.harness_json("append", {"log": str(log), "last_seq": 10000}, calls="SessionLog.append", cwd=root)
    if report.get("skip"):
        pytest.skip(ctx.say("bonus.no_proc_io"))
    now = log.read_bytes()
    tail = now[len(body):]
    if not now.startswith(body) or tail.count(b"\n") != 1 or not tail.endswith(b"\n"):
        added = tail.count(b"\n")
        seen = (ctx.say("brief.first_lines_changed") if not now.startswith(body)
                else ctx.say("brief.added_lines", count=added))
        raise CheckFailed(ctx.say("bonus.append_wrong_line", seen=seen))
    if report["written"] > 4 * len(tail) + 4096:
        raise CheckFailed(ctx.say("bonus.append_not_incremental", line=len(tail), written=report["written"]))


def test_single_writer(ctx):
    """A second process that resumes a session still being written is refused, never interleaved silently."""
    say = ctx.say
    ws, sessions = workspace(ctx, "single-writer")
    with ctx.start_agent("--yes", "--sessions-dir", str(sessions), cwd=ws) as writer:
        writer.send("hi\n")

        def answered():
            found = logs_in(sessions)
            return found and any(line.message.get("role") == "assistant" for line in read_lines(found[0]))

        if not wait_until(lambda: answered() or not writer.running(), ctx.scaled(WAIT_TIMEOUT)) or not answered():
            found = logs_in(sessions)
            raise CheckFailed(say("bonus.writer_not_ready", seconds=WAIT_TIMEOUT,
                                  seen=shapes(read_lines(found[0])) if found else say("brief.no_log")))
        log = logs_in(sessions)[0]
        before = log.read_bytes()
        second = ctx.run_agent("--yes", "--resume", log.stem, "--sessions-dir", str(sessions), "hi", cwd=ws)
        added = len(log.read_bytes()) - len(before)
        writer.send("/exit\n")
        writer.close_stdin()
        writer.wait(10)
    if log.read_bytes()[:len(before)] != before or added:
        raise CheckFailed(say("bonus.interleaved", added=added))
    if second.returncode == 0:
        raise CheckFailed(say("bonus.second_accepted", status=second.returncode))
    if not (second.stderr + second.stdout).strip():
        raise CheckFailed(say("bonus.second_silent"))


def test_errors_recorded(ctx):
    """A live round in which a tool fails and the model request fails once records the failed tool result and an error event, each in its place."""
    say = ctx.say
    rng = ctx.rng("errors-recorded")
    missing = f"missing-{rng.randrange(10**6)}.py"
    call_id = f"call_{rng.randrange(16**6):06x}"
    first = SSEStream().role().text("Let me read it.")
    first.tool_calls([(call_id, "read_file", json.dumps({"path": missing}))], pieces=2, interleave=False)
    last = SSEStream().role().text("That file is not there.").finish("stop").usage(30, 6).done()
    script = [reply_stream(first.finish("tool_calls").usage(20, 8).done()), reply_status(503), reply_stream(last)]
    ws, sessions = workspace(ctx, "errors-recorded")
    with FakeModelServer(script, enforce_chain=True) as server:
        result = ctx.run_agent("--yes", "--sessions-dir", str(sessions), f"read {missing}", cwd=ws,
                               extra_env=server.env(), mock=False)
    ctx.expect_ok(result, say("bonus.errors_failed", command=result.short_command(), status=result.returncode))
    lines = read_lines(only_log(ctx, sessions, "round1.no_log"))
    kinds = [line.kind for line in lines]
    tool_end = next((line.data for line in lines if line.kind == "tool_end"), None)
    if tool_end is None or tool_end.get("ok") is not False:
        raise CheckFailed(say("bonus.errors_tool_end", seen=shapes(lines)))
    errors = [index for index, kind in enumerate(kinds) if kind == "error"]
    tool_message = kinds.index("message tool") if "message tool" in kinds else None
    if not errors:
        raise CheckFailed(say("bonus.errors_missing", seen=shapes(lines)))
    error = lines[errors[0]].data
    if tool_message is None or errors[0] != tool_message + 1 or kinds[errors[0] + 1:] != ["usage", "message assistant"]:
        raise CheckFailed(say("bonus.errors_place", seen=shapes(lines)))
    if error.get("where") != "gateway" or "503" not in str(error.get("message")):
        raise CheckFailed(say("bonus.errors_fields", seen=json.dumps({k: error.get(k) for k in ("message", "where")})))


def test_missing_line(ctx):
    """A log with one line removed from the middle stops reading at the gap."""
    say = ctx.say
    rng = ctx.rng("missing-line")
    log = loggen.two_round_log(rng)
    # A call of round 2 goes missing, one whose last valid point before it is a fork point
    # (round 2's request), so the recovery fork is made by fork() and carries round 1 whole.
    gone = rng.choice([n for n in range(10, len(log.lines)) if log.events[n - 1]["type"] == "message"
                       and log.events[n - 1]["message"].get("tool_calls")
                       and max(seq for seq in log.recovery_points if seq < n) in log.fork_points])
    data = b"".join(line for number, line in enumerate(log.lines, 1) if number != gone)
    ws, sessions = workspace(ctx, "missing-line")
    path = sessions / log.file_name
    sessions.mkdir()
    path.write_bytes(data)
    result = ctx.run_agent("--yes", "--resume", log.session_id, "--sessions-dir", str(sessions), "hi", cwd=ws)
    if result.returncode != 0:
        raise CheckFailed(say("bonus.missing_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    if not re.search(rf"\bline {gone}\b", said(result)):
        raise CheckFailed(say("bonus.missing_silent", line=gone, said=said(result)[:300]))
    point = max(seq for seq in log.recovery_points if seq < gone)
    if not path.is_file() or path.read_bytes() != data:
        raise _changed(ctx, "bonus.missing_changed", data, path.read_bytes() if path.is_file() else None, point,
                       reader=True)
    made = new_logs(sessions, {path})
    if len(made) != 1:
        raise CheckFailed(say("bonus.missing_no_fork", made=names(made)))
    lines = read_lines(made[0])
    problem = chain_problem([line.message for line in lines if line.message])
    if problem:
        raise CheckFailed(say("bonus.missing_chain", problem=problem))
    _expect_recovery_at(ctx, lines, point, data, "bonus.missing_point")


def _changed(ctx, key: str, before: bytes, after: bytes | None, point: int, *, reader: bool = False,
             torn: bool = False) -> CheckFailed:
    """A resume changed the file it was to leave alone: say how (gone, shrank, grew,
    rewritten) and, from the shape of the change, whose code did it. During a resume
    only two exercise points open that file: read_events (E3, when the check rests on
    it: `reader`) reads it, and fork (E5) copies the recovery fork's prefix from it.
    `point` is the seq the recovery fork starts from; `torn`: the file ends in a torn line."""
    say = ctx.say
    lines = [line.raw for line in parse_lines(before)]
    unsure = "bonus.who_either" if reader else "bonus.who_fork"
    if after is None:
        how, who = say("bonus.changed_gone"), say("bonus.who_fork")
    elif len(after) < len(before) and before.startswith(after):
        how = say("bonus.changed_shrank", before=len(before), after=len(after), lines=after.count(b"\n"),
                  total=len(lines))
        if after == b"".join(lines[:point]):
            who = say("bonus.who_fork_cut", point=point)
        elif torn and after == before[:before.rfind(b"\n") + 1]:
            who = say("bonus.who_reader_cut")
        else:
            who = say(unsure)
    elif len(after) > len(before) and after.startswith(before):
        added = after[len(before):]
        count = added.count(b"\n")
        how = say("bonus.changed_grew", before=len(before), after=len(after),
                  added="a newline" if added == b"\n" else f"{count} line{'s' if count != 1 else ''}")
        who = say("bonus.who_fork_grew")
    else:
        differs = next((n for n, (a, b) in enumerate(zip(lines, [line.raw for line in parse_lines(after)]), 1) if a != b),
                       min(len(lines), after.count(b"\n")) + 1)
        how = say("bonus.changed_rewritten", before=len(before), after=len(after), line=differs)
        rest = parse_lines(after[len(b"".join(lines[:point])):]) if after.startswith(b"".join(lines[:point])) else []
        if len(rest) == 1 and rest[0].data and rest[0].data.get("type") == "fork":
            who = say("bonus.who_fork_same_file", point=point)
        else:
            who = say(unsure)
    return CheckFailed(say(key, how=how, who=who))


def _expect_recovery_at(ctx, lines, point: int, parent: bytes, key: str) -> None:
    """The recovery fork starts at the last valid point before the damage (a fork point or
    the end of a complete tool round): its first `point`
    lines are the damaged file's, byte for byte, and line point + 1 is the fork event
    with atSeq point."""
    forks = [line for line in lines if line.data and line.data.get("type") == "fork"]
    at = forks[0].data.get("atSeq") if forks else None
    if at != point:
        raise CheckFailed(ctx.say(key, point=point, seen=at if forks else ctx.say("brief.no_fork_event")))
    copied, original = [line.raw for line in lines[:point]], [line.raw for line in parse_lines(parent)[:point]]
    before = forks[0].number - 1  # lines before the fork event
    if before != point:
        raise CheckFailed(ctx.say("bonus.recovery_prefix_count", point=point, line=forks[0].number, before=before))
    if copied != original:
        differs = next(n for n, (a, b) in enumerate(zip(copied, original), 1) if a != b)
        raise CheckFailed(ctx.say("bonus.recovery_prefix_differs", point=point, line=differs))


def test_model_frozen(ctx):
    """A session made with one model keeps it: resumed with the environment naming another, its requests still name the session's model, and the CLI says so."""
    say = ctx.say
    rng = ctx.rng("model-frozen")
    first_model, other = f"grader-model-{rng.randrange(10**6)}", f"other-model-{rng.randrange(10**6)}"
    ws, sessions = workspace(ctx, "model-frozen")
    with model_server() as server:
        made = ctx.run_agent("--yes", "--sessions-dir", str(sessions), ROUND1, cwd=ws,
                             extra_env=server.env(model=first_model), mock=False)
        ctx.expect_ok(made, say("bonus.frozen_round1", command=made.short_command()))
        asked_before = len(server.requests)
        resumed = ctx.run_agent("--yes", "--resume", "--sessions-dir", str(sessions), "fix it", cwd=ws,
                                extra_env=server.env(model=other), mock=False)
        requests = server.requests[asked_before:]
    ctx.expect_ok(resumed)
    models = sorted({r.model for r in requests})
    if models != [first_model]:
        raise CheckFailed(say("bonus.frozen_model", expected=first_model, seen=", ".join(map(str, models)) or "none"))
    if first_model not in said(resumed):
        raise CheckFailed(say("bonus.frozen_silent", model=first_model, said=said(resumed)[:300]))
