"""Day 07 checks: session persistence - an append-only event log, resume, fork.

The contract is shared/days/day-07.md. How the checks get their inputs:

* checks 1-3 read the log of one live round 1 with the mock (`round1`, run once);
* check 4 kills a live round while its tool runs, and feeds the lab's recorder one
  agent event at a time through a harness (harnesses/recorder.py);
* check 6 runs two real processes against the grader's fake model server, which
  records the exact history the second one sends;
* checks 5 and 7-11 run the lab's replay, reader, fork points and fork on logs the
  grader generates for this run from its seed (ids, times, ASCII/CJK/emoji text,
  damage at random places), so no answer can be memorised, and each check rests on
  one exercise point only.

Every draw holds the cases the checks are about (none is left to a seed): the recorder
gets calls blocked by the approval gate and by the loop guard, each with its tool_end;
replay and the reader get a log with a tool result (one line) of more than 1 MiB, longer
than any plausible fixed line cap; the fork points are asked of a log whose answer at 8
is an empty reply without tool calls; one parent is forked twice in the same second.

Student code runs only in children. Failure wording lives in messages.toml.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from grader.checkkit import CheckFailed, ChildResult, ChildTimeout, wait_until
from grader.checkkit import logdamage, loggen
from grader.checkkit.children import said
from grader.checkkit.draws import mixed_text
from grader.checkkit.sessionlog import (KNOWN_TYPES, described, is_utc, logs_in, names, read_lines, shapes,
                                        why_not_utc)

from .calls import call, digest_long, fields_of, inspect, new_logs, odd_value, rows, scratch_with
from .compare import ReadCase, messages_differ, read_answer
from .live import (NOT_UTC, ROUND1, ROUND1_SHAPE, WAIT_TIMEOUT, history_problem, kill_during_tests, model_server,
                   only_log, workspace)

ID_PATTERN = re.compile(r"s-(\d{8})-(\d{6})-[0-9a-f]{4}")


# --------------------------------------------------------------------------- round 1, live

@dataclass
class Round:
    ctx: object
    workspace: Path
    sessions: Path
    started: datetime
    result: ChildResult | None = None
    timeout: ChildTimeout | None = None

    def log(self) -> Path:
        """The one log round 1 left; fails the check if the round or the log is missing."""
        if self.timeout is not None:
            raise self.timeout
        say = self.ctx.say
        self.ctx.expect_ok(self.result, say("round1.failed", command=self.result.short_command()))
        return only_log(self.ctx, self.sessions, "round1.no_log")


@pytest.fixture(scope="module")
def round1(ctx) -> Round:
    """Round 1, run once: `--yes --sessions-dir S "run the tests and tell me which case fails"`."""
    ws, sessions = workspace(ctx, "round1")
    live = Round(ctx, ws, sessions, datetime.now(timezone.utc))
    try:
        live.result = ctx.run_agent("--yes", "--sessions-dir", str(sessions), ROUND1, cwd=ws, extra_env=NOT_UTC)
    except ChildTimeout as exc:
        live.timeout = exc
    return live


def test_session_id(ctx, round1):
    """A new session gets an id like s-YYYYMMDD-HHMMSS-xxxx (UTC creation time) and its log file in the sessions dir."""
    log = round1.log()
    match = ID_PATTERN.fullmatch(log.stem)
    if match is None:
        raise CheckFailed(ctx.say("round1.bad_name", name=log.name), expected="s-YYYYMMDD-HHMMSS-xxxx.jsonl",
                          seen=log.name)
    try:
        stamp = datetime.strptime("".join(match.groups()), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    except ValueError:
        raise CheckFailed(ctx.say("round1.bad_name", name=log.name)) from None
    now = round1.started
    if not now - timedelta(minutes=2) <= stamp <= datetime.now(timezone.utc) + timedelta(minutes=2):
        raise CheckFailed(ctx.say("round1.not_utc_now", now=f"{now:%Y%m%d-%H%M%S}", stamp=f"{stamp:%Y%m%d-%H%M%S}"))
    # The random part keeps apart sessions made elsewhere in the same second: two more sessions,
    # each by a process of its own in a sessions dir of its own, must not all draw the same one
    # (a generator seeded with a constant, a fixed cycle, gives every process the same first draw).
    names = [log.name]
    for n in (1, 2):
        ws, sessions = workspace(ctx, f"session-id-{n}")
        result = ctx.run_agent("--yes", "--sessions-dir", str(sessions), rng_word(ctx), cwd=ws, extra_env=NOT_UTC)
        ctx.expect_ok(result, ctx.say("round1.failed", command=result.short_command()))
        names.append(only_log(ctx, sessions, "round1.no_log").name)
    suffixes = {ID_PATTERN.fullmatch(Path(name).stem) and Path(name).stem[-4:] for name in names}
    if len(suffixes) == 1:
        raise CheckFailed(ctx.say("round1.same_random_part", part=suffixes.pop()), seen=", ".join(names))


def rng_word(ctx) -> str:
    """A short request the mock answers at once (a new session all the same)."""
    return "hello " + mixed_text(ctx.rng("session-id"), (1, 3)).replace("\n", " ")


def test_log_format(ctx, round1):
    """After round 1 the log holds exactly 8 lines, each one JSON object ending in a newline, with seq 1..8, a UTC ts and a known type."""
    say = ctx.say
    lines = read_lines(round1.log())
    for line in lines:
        if not line.raw.endswith(b"\n"):
            raise CheckFailed(say("round1.line_unterminated", line=line.number))
        if line.data is None:
            raise CheckFailed(say("round1.line_not_object", line=line.number, why=_why_not_object(say, line.raw)),
                              seen=line.text(120))
    if len(lines) != 8:
        raise CheckFailed(say("round1.line_count", count=len(lines)), expected=8, seen=shapes(lines))
    for line in lines:
        data = line.data
        if data.get("seq") != line.number or type(data.get("seq")) is not int:
            raise CheckFailed(say("round1.seq_wrong", expected=line.number, line=line.number, seen=data.get("seq")))
        if not is_utc(data.get("ts")):
            raise CheckFailed(say("round1.ts_wrong", line=line.number, why=why_not_utc(data.get("ts"))))
        if data.get("type") not in KNOWN_TYPES:
            raise CheckFailed(say("round1.type_unknown", line=line.number, seen=data.get("type")))


def _why_not_object(say, raw: bytes) -> str:
    try:
        return say("brief.json_of_type", type=type(json.loads(raw)).__name__)
    except ValueError as exc:
        return say("brief.not_json", error=exc)


def test_event_order(ctx, round1):
    """A tool round is logged as usage, the assistant message with tool calls, its tool_end, then the tool result: 5 messages and 3 other events."""
    lines = read_lines(round1.log())
    seen = [line.kind for line in lines]
    if seen != ROUND1_SHAPE:
        raise CheckFailed(ctx.say("round1.order_wrong", expected=", ".join(ROUND1_SHAPE), seen=", ".join(seen)))
    call_id = (lines[3].message.get("tool_calls") or [{}])[0].get("id")
    ids = (lines[4].data.get("id"), lines[5].message.get("tool_call_id"))
    if ids != (call_id, call_id):
        raise CheckFailed(ctx.say("round1.tool_end_id", call_id=call_id, seen=" and ".join(map(str, ids))))


# --------------------------------------------------------------------------- check 4: on disk when it happens

def test_written_as_it_happens(ctx):
    """While the tool is still running, events 1-4 are already on disk and a SIGKILL loses none of them."""
    killed = kill_during_tests(ctx, "written-as-it-happens")
    expected = ROUND1_SHAPE[:4]
    seen = described(killed.during)
    if [line.kind for line in killed.during] != expected or any(not line.raw.endswith(b"\n") for line in killed.during):
        raise CheckFailed(ctx.say("live.not_on_disk", seen=seen), expected=", ".join(expected), seen=seen)
    if [line.raw for line in killed.after] != [line.raw for line in killed.during]:
        raise CheckFailed(ctx.say("live.lost_on_kill", count=len(killed.during), seen=described(killed.after)))
    from .recording import check_recorder
    check_recorder(ctx)


# --------------------------------------------------------------------------- checks 5-6: replay and resume

def test_replay_counts(ctx):
    """Replaying generated logs (in plain English, in one script and mixed, with error, unknown-type and fork events too, and a tool result of more than 1 MiB) returns exactly the logged messages in log order, whatever their size, counts every other event as skipped, and gives a token estimate above zero."""
    rng = ctx.rng("replay-counts")
    two = loggen.two_round_log(rng)
    say = ctx.say
    logs = [(say("what.round1"), loggen.round1_log(rng, voice="plain")),  # as a person's session speaks
            (say("what.round1_error_unknown"), loggen.round1_log(rng, error=True, unknown=True)),
            (say("what.two_rounds_error"), loggen.two_round_log(rng, error_between_rounds=True)),
            (say("what.forked"), loggen.fork_child(two, rng.choice(two.fork_points), rng)),
            (say("what.repeated_turn"), loggen.round1_log(rng, repeat_turn=True)),
            (say("what.retried_prompt"), loggen.round1_log(rng, retried_prompt=True)),
            (say("what.clock_back"), loggen.round1_log(rng, clock_back=True)),
            (say("what.empty_read"), loggen.round1_log(rng, empty_read=True)),
            (say("what.long_result"), loggen.round1_log(rng, long_output=True)),  # a tool result over 1 MiB
            (say("what.iterator"), loggen.round1_log(rng, voice="one-script"))]
    inputs = [rows(log.events) for _, log in logs]
    inputs[-1] = {"rows": inputs[-1], "once": True}
    answers = call(ctx, "replay", inputs, "replay")
    for (what, log), answer in zip(logs, answers):
        problem = ctx.harness_problem(answer, "replay()", what)
        if problem:
            raise problem
        wrong = messages_differ(ctx.say, answer.get("messages"), digest_long(log.messages), what)
        if wrong:
            raise CheckFailed(wrong)
        counts = (answer.get("replayed"), answer.get("skipped"))
        if counts != (log.replayed, log.skipped):
            raise CheckFailed(ctx.say("replay.counts", what=what, replayed=counts[0], skipped=counts[1],
                                      expected_replayed=log.replayed, expected_skipped=log.skipped),
                              expected=ctx.say("brief.replayed_skipped", replayed=log.replayed, skipped=log.skipped),
                              seen=ctx.say("brief.replayed_skipped", replayed=counts[0], skipped=counts[1]))
        if not isinstance(answer.get("tokens"), int) or answer["tokens"] <= 0:
            raise CheckFailed(ctx.say("replay.tokens", seen=answer.get("tokens")))


def first_sentence(text: str) -> str:
    text = " ".join(str(text).split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return match.group(1) if match else text


def test_resume_across_processes(ctx):
    """A second process started with --resume continues the latest session by name: the request it sends holds round 1's logged messages first, in their order, and its reply's first sentence names test_divide_by_zero."""
    say = ctx.say
    ws, sessions = workspace(ctx, "resume-across-processes")
    with model_server() as server:
        env = server.env(model=f"grader-model-{ctx.rng('resume-model').randrange(10**6)}")
        first = ctx.run_agent("--yes", "--sessions-dir", str(sessions), ROUND1, cwd=ws, extra_env=env, mock=False)
        ctx.expect_ok(first, say("resume.round1_failed", command=first.short_command()))
        log = only_log(ctx, sessions, "round1.no_log")
        if [line.kind for line in read_lines(log)] != ROUND1_SHAPE:  # the recorder (E1) logged round 1 wrong
            raise CheckFailed(say("resume.round1_shape", seen=shapes(read_lines(log))))
        logged = [line.message for line in read_lines(log) if line.data and line.data.get("type") == "message"]
        decoy = _decoy(ctx, sessions, log.stem)
        asked_before = len(server.requests)
        second = ctx.run_agent("--yes", "--resume", "--sessions-dir", str(sessions), "fix it", cwd=ws,
                               extra_env=env, mock=False)
        requests = server.requests[asked_before:]
    if any(line.message.get("content") == "fix it" for line in read_lines(decoy)):
        raise CheckFailed(say("resume.wrong_session", latest=log.stem, chosen=decoy.stem))
    ctx.expect_ok(second, say("resume.failed", command=second.short_command(), status=second.returncode))
    if not requests:
        raise CheckFailed(say("resume.no_request"))
    why = history_problem(say, requests[0], logged, "fix it", say("what.round1_history"))
    if why:
        stopped = re.search(r"log stopped at line \d+[^|]*", said(second))
        if stopped:  # the reader (E3) said a clean log was damaged: resume went on without part of it
            raise CheckFailed(say("resume.reader_stopped", stopped=stopped.group(0).strip()))
        raise CheckFailed(say("resume.history_wrong", why=why))
    lines = read_lines(log)
    seqs = [(line.data or {}).get("seq") for line in lines]
    if seqs != list(range(1, len(lines) + 1)):  # the second process went on numbering where the first stopped
        first_bad = next(i for i, seq in enumerate(seqs, 1) if seq != i)
        raise CheckFailed(say("resume.seq_restarted", line=first_bad, seen=seqs[first_bad - 1], count=len(logged)),
                          expected=say("brief.seq_on_line", seq=first_bad, line=first_bad), seen=f"seq {seqs[first_bad - 1]}")
    asked = max((i for i, line in enumerate(lines) if line.message.get("content") == "fix it"), default=len(lines))
    answers = [line.message for line in lines[asked:] if line.message.get("role") == "assistant"]
    sentence = first_sentence((answers[0] if answers else {}).get("content") or second.stdout)
    wanted = "test_divide_by_zero"
    if wanted not in sentence:
        raise CheckFailed(say("resume.not_named", case=wanted, sentence=sentence),
                          expected=say("brief.sentence_naming", case=wanted), seen=sentence)


def _decoy(ctx, sessions: Path, live_id: str) -> Path:
    """An older session by name whose file was modified later: "latest" means by name."""
    import os
    import time
    stamp = datetime.strptime(live_id[2:17], "%Y%m%d-%H%M%S") - timedelta(hours=ctx.rng("decoy").randint(1, 900))
    decoy = sessions / f"s-{stamp:%Y%m%d-%H%M%S}-{ctx.rng('decoy-id').randrange(16**4):04x}.jsonl"
    decoy.write_bytes(loggen.round1_log(ctx.rng("decoy-log")).data)
    later = time.time() + 3600
    os.utime(decoy, (later, later))
    return decoy


# --------------------------------------------------------------------------- checks 7-8: reading damaged logs

def _read_cases(ctx, name: str, entries) -> list[tuple[ReadCase, dict]]:
    """Write each (what, data, events, stopped_at), read them all with the lab's reader in one
    child, and return (case, answer) pairs, having checked no file was changed."""
    root = ctx.tmp(name)
    cases = []
    for number, (what, data, events, stopped_at) in enumerate(entries, 1):
        path = root / f"{number:02d}" / "log.jsonl"
        path.parent.mkdir()
        path.write_bytes(data)
        cases.append(ReadCase(path, what, events, stopped_at))
    before = [case.stamp() for case in cases]
    answers = call(ctx, "read_events", [str(case.path) for case in cases], name)
    for case, stamp in zip(cases, before):
        if case.stamp() != stamp:
            raise CheckFailed(ctx.say("read.file_changed", what=case.what, before=stamp[1],
                                      after=case.path.stat().st_size))
    return list(zip(cases, answers))


def test_torn_tail(ctx):
    """A generated log whose last line was cut at a random byte (also inside a multi-byte character, or only its newline dropped) reads as its complete events and reports that line as incomplete, not as a bad line."""
    rng = ctx.rng("torn-tail")
    one, two, three = loggen.round1_log(rng), loggen.two_round_log(rng), loggen.round1_log(rng, unknown=True)
    long = loggen.round1_log(rng, long_output=True)
    torn = [logdamage.torn_tail(one, rng, inside_char=True), logdamage.torn_tail(two, rng, inside_char=False),
            logdamage.torn_tail(long, rng)]
    entries = [(d.description, d.data, d.events, d.stopped_at) for d in (*torn, logdamage.no_newline(three))]
    entries += [(ctx.say("what.uncut", what=what), log.data, log.events, None)
                for what, log in ((ctx.say("what.kind_round1"), one), (ctx.say("what.kind_two_rounds"), two),
                                  (ctx.say("what.kind_round1_unknown"), three),
                                  (ctx.say("what.kind_round1_long", size=f"{len(long.lines[5]):,}"), long))]
    # Complete bad lines in the middle, for the reasons only: a torn tail must not be
    # reported as if it were one (parse before looking for the newline, and it would be).
    middle = [logdamage.bad_middle_line(loggen.two_round_log(rng), rng, kind) for kind in ("bad-json", "bad-utf8")]
    entries += [(d.description, d.data, d.events, d.stopped_at) for d in middle]
    order = rng.sample(range(len(entries)), len(entries))
    answers = dict(zip(order, _read_cases(ctx, "torn-tail", [entries[i] for i in order])))
    judged = len(entries) - len(middle)  # the middle lines are bad-line-stops' to judge
    for index in range(judged):
        problem = read_answer(ctx.say, *answers[index])
        if problem:
            raise problem
    complete_reasons = {answer.get("reason") for case, answer in (answers[i] for i in range(judged, len(entries)))
                        if answer.get("stopped_at") == case.stopped_at}
    for index, damage in enumerate(torn):
        reason = answers[index][1].get("reason")
        if reason in complete_reasons:
            raise CheckFailed(ctx.say("read.torn_like_bad", what=damage.description, reason=reason),
                              seen=ctx.say("what.same_reason", reason=repr(reason)))
    _read_while_growing(ctx, rng, two)


def _read_while_growing(ctx, rng, log: loggen.GeneratedLog) -> None:
    """One file read three times as it grows in place (a live session's log): k complete
    lines, then line k+1 half written, then the whole log. Each read must see the file as
    it is then."""
    k = rng.randint(2, len(log.lines) - 2)
    prefix = loggen.GeneratedLog(log.session_id, log.lines[:k], log.events[:k])
    half = logdamage.torn_tail(loggen.GeneratedLog(log.session_id, log.lines[:k + 1], log.events[:k + 1]), rng)
    versions = [(ctx.say("what.growing_first", lines=k), prefix.data, prefix.events, None),
                (ctx.say("what.growing_half", line=k + 1), half.data, half.events, k + 1),
                (ctx.say("what.growing_all", lines=len(log.lines)), log.data, log.events, None)]
    root = ctx.tmp("torn-tail-growing")
    files = []
    for number, (_, data, _, _) in enumerate(versions, 1):
        files.append(root / f"version-{number}.jsonl")
        files[-1].write_bytes(data)
    path = root / "live" / "log.jsonl"
    path.parent.mkdir()
    answer = call(ctx, "read_versions", [{"path": str(path), "versions": [str(f) for f in files]}],
                  "torn-tail-growing")[0]
    problem = ctx.harness_problem(answer, "read_events()", versions[0][0])
    if problem:
        raise problem
    for (what, _, events, stopped_at), seen in zip(versions, answer.get("versions", [])):
        case = ReadCase(path, what, events, stopped_at)
        problem = read_answer(ctx.say, case, seen)
        if problem:
            raise problem
        if not seen.get("unchanged"):
            raise CheckFailed(ctx.say("read.file_written", what=what))


def test_bad_line_stops(ctx):
    """A bad line of every kind (bad JSON or UTF-8, a raw control character, blank (the last line too), not an object, more after the object, seq/ts/type missing, a seq that is not an integer, a repeated or lower seq, a seq gap, a first seq other than 1) stops reading at that line with its number."""
    rng = ctx.rng("bad-line-stops")
    entries = []
    for kind in logdamage.BAD_LINE_KINDS:
        log = loggen.two_round_log(rng) if rng.random() < 0.5 else loggen.round1_log(rng, unknown=rng.random() < 0.5)
        bad = logdamage.bad_middle_line(log, rng, kind)
        entries.append((bad.description, bad.data, bad.events, bad.stopped_at))
    for extra in (logdamage.first_line_seq(loggen.round1_log(rng), rng), logdamage.blank_last_line(loggen.round1_log(rng))):
        entries.append((extra.description, extra.data, extra.events, extra.stopped_at))
    rng.shuffle(entries)
    for case, answer in _read_cases(ctx, "bad-line-stops", entries):
        problem = read_answer(ctx.say, case, answer)
        if problem:
            raise problem


# --------------------------------------------------------------------------- checks 9-11: fork

def _with_empty_tool_calls(rng) -> loggen.GeneratedLog:
    """A round-1 log whose final answer carries `tool_calls: []`: no calls, a fork point."""
    log = loggen.round1_log(rng)
    events = [dict(e) for e in log.events]
    events[-1] = {**events[-1], "message": {**events[-1]["message"], "tool_calls": []}}
    return loggen.GeneratedLog(log.session_id, [loggen.encode(e) for e in events], events)


def _with_empty_answer(rng) -> loggen.GeneratedLog:
    """A two-round log whose round-1 answer (seq 8) is an empty reply without tool calls (a
    model that said nothing): a clean boundary all the same, so the points stay 2, 8, 9, 19."""
    log = loggen.two_round_log(rng)
    events = [dict(e) for e in log.events]
    assert events[7]["type"] == "message" and events[7]["message"]["role"] == "assistant"
    events[7] = {**events[7], "message": {**events[7]["message"], "content": ""}}
    return loggen.GeneratedLog(log.session_id, [loggen.encode(e) for e in events], events)


def _slices(say, rng, log: loggen.GeneratedLog) -> list[tuple[str, loggen.GeneratedLog]]:
    """Parts of a log, as resume and the recovery fork hand them to fork_points (the events
    before a damaged line, one event at a time): an answer must be the seqs of the events
    it was given, not positions in the list, and a last event counts like any other."""
    events, n = log.events, len(log.events)

    def part(what: str, start: int, end: int) -> tuple[str, loggen.GeneratedLog]:
        return (say("what.slice", what=what, first=events[start]["seq"], last=events[end - 1]["seq"]),
                loggen.GeneratedLog(log.session_id, log.lines[start:end], events[start:end]))

    users = [i for i, e in enumerate(events) if e["type"] == "message" and e["message"]["role"] == "user"]
    last_user = rng.choice(users[1:])
    start = rng.randint(2, n // 2)
    return [part(say("what.slice_unanswered"), 0, last_user + 1),
            part(say("what.slice_to_end"), start, n),
            part(say("what.slice_one_user"), last_user, last_user + 1),
            part(say("what.slice_middle"), rng.randint(1, 4), rng.randint(n // 2 + 1, n - 1))]


def test_fork_points(ctx):
    """On generated logs (in plain English, in one script and mixed) and parts of them the fork points are exactly the seqs of the clean boundaries, in log order (2, 8, 9, 19 on a two-round log, also when the answer at 8 is an empty reply; others with error, unknown-type, fork and empty tool_calls events), and `fork ID 4` is refused with the valid points named and nothing created."""
    say = ctx.say
    rng = ctx.rng("fork-points")
    # in every voice a session speaks (plain English, one script, mixed): nothing about the text
    # tells a generated log from a person's
    two = loggen.two_round_log(rng, voice="plain")
    logs = [(say("what.two_rounds"), two),
            (say("what.two_rounds_error"), loggen.two_round_log(rng, error_between_rounds=True, voice="one-script")),
            (say("what.round1_unknown"), loggen.round1_log(rng, unknown=True, error=True)),
            (say("what.empty_tool_calls"), _with_empty_tool_calls(rng)),
            (say("what.empty_answer"), _with_empty_answer(rng)),
            (say("what.forked"), loggen.fork_child(two, rng.choice(two.fork_points), rng))]
    logs += _slices(say, rng, loggen.two_round_log(rng, error=True))
    answers = call(ctx, "fork_points", [rows(log.events) for _, log in logs], "fork-points")
    for (what, log), answer in zip(logs, answers):
        problem = ctx.harness_problem(answer, "fork_points()", what)
        if problem:
            raise problem
        points = answer.get("points")
        if answer.get("type") != "list" or points != log.fork_points:
            shown = odd_value(points) or points
            raise CheckFailed(say("fork.points_wrong", what=what, seen=shown, kind=answer.get("type")),
                              expected=log.fork_points, seen=shown)
    two = logs[0][1]
    root = scratch_with(ctx, "fork-refused", two)
    result = ctx.run_agent("fork", two.session_id, "4", cwd=root, timeout=10)
    made = new_logs(root / ".sessions", {root / ".sessions" / two.file_name})
    if result.returncode == 0:
        raise CheckFailed(say("fork.not_refused", made=names(made)))
    text = said(result)
    if not {2, 8, 9, 19} <= numbers_in(text):
        raise CheckFailed(say("fork.refusal_silent", said=text[:300] or "(nothing)"))
    if made:
        raise CheckFailed(say("fork.refused_but_made", made=names(made)))


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\w-])\d+(?![\w-])", ID_PATTERN.sub(" ", text))}


@dataclass
class Forked:
    what: str
    root: Path
    parent: loggen.GeneratedLog
    path: Path
    at_seq: int
    before: tuple
    result: ChildResult
    held: bool = False  # another process had the parent open for writing
    damage: str | None = None  # how the parent is damaged after at_seq, if it is


def _stat(path: Path) -> tuple:
    import os
    info = os.stat(path)
    return (path.read_bytes(), info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns)


@pytest.fixture(scope="module")
def forks(ctx) -> list[Forked]:
    """The forks checks 10 and 11 judge, run once: at 8 of a compact, key-shuffled two-round log;
    at another fork point of one in the usual layout; before the cut of a log whose last line a
    crash cut (the lines up to N are sound: a fork must not refuse them); and of a session that
    another process holds open. Every log is full of non-ASCII text."""
    rng = ctx.rng("forks")
    plans = [(ctx.say("what.compact"), loggen.two_round_log(rng, compact=True, shuffle_keys=True), 8, False)]
    usual = loggen.two_round_log(rng)
    plans.append((ctx.say("what.two_rounds"), usual, rng.choice([p for p in usual.fork_points if p != 8]), False))
    torn = logdamage.torn_tail(loggen.two_round_log(rng), rng)  # a crash cut its last line: the lines
    plans.append((ctx.say("what.torn_parent", damage=torn.description), torn,  # before the cut are sound
                  rng.choice([p for p in torn.source.fork_points if p < torn.stopped_at]), False))
    live = loggen.round1_log(rng, empty_read=rng.random() < 0.5)
    plans.append((ctx.say("what.open_elsewhere"), live, rng.choice(live.fork_points), True))
    done = []
    for what, log, at_seq, held in plans:
        parent = getattr(log, "source", log)  # a Damaged log's lines up to the cut are its source's
        root = scratch_with(ctx, f"fork-at-{at_seq}-{len(done)}", log)
        path = root / ".sessions" / parent.file_name
        with _held_open(ctx, path, log) if held else contextlib.nullcontext():
            before = _stat(path)
            result = ctx.run_agent("fork", log.session_id, str(at_seq), cwd=root, timeout=10, extra_env=NOT_UTC)
        done.append(Forked(what, root, parent, path, at_seq, before, result, held,
                           damage=getattr(log, "description", None)))
    return done


@contextlib.contextmanager
def _held_open(ctx, path: Path, log: loggen.GeneratedLog):
    """The session open for writing in another process (the provided SessionLog, its lock
    taken), as while an agent works in it: a fork only reads the parent, so it still works."""
    script = ctx.harness("hold_open")
    with ctx.start_harness(script, str(path), str(len(log.events))) as holder:
        if not wait_until(lambda: '"open"' in holder.stdout_so_far() or not holder.running(),
                          ctx.scaled(WAIT_TIMEOUT)) or not holder.running():
            holder.kill()
            raise CheckFailed(ctx.say("fork.holder_failed"), seen=ctx.evidence(holder.wait(5)))
        try:
            yield
        finally:
            holder.close_stdin()
            holder.wait(5)


def _forked_child(ctx, fork: Forked) -> Path:
    say = ctx.say
    if fork.result.returncode != 0:
        if fork.held:
            raise CheckFailed(say("fork.refused_open", at=fork.at_seq), seen=ctx.evidence(fork.result))
        if fork.damage:
            raise CheckFailed(say("fork.refused_damaged", at=fork.at_seq, damage=fork.damage,
                                  status=fork.result.returncode),
                              seen=ctx.evidence(fork.result))
        if re.search(r"fork point|clean boundary", said(fork.result)):
            raise CheckFailed(say("fork.refused_clean_point", at=fork.at_seq, what=fork.what),
                              seen=ctx.evidence(fork.result))
        raise CheckFailed(say("fork.failed", at=fork.at_seq, status=fork.result.returncode),
                          seen=ctx.evidence(fork.result))
    made = new_logs(fork.root / ".sessions", {fork.path})
    if len(made) != 1:
        raise CheckFailed(say("fork.new_files", at=fork.at_seq, seen=names(made)))
    return made[0]


def test_fork_copies_prefix(ctx, forks):
    """`fork ID N` on non-ASCII logs (one of them cut by a crash after N) makes a new session whose first N lines equal the parent's byte for byte, then one fork event (from, atSeq N, seq N+1, UTC ts), and nothing else."""
    say = ctx.say
    for fork in (f for f in forks if not f.held):  # the fork of an open session is parent-untouched's
        child = _forked_child(ctx, fork)
        if child.stem not in fork.result.stdout:
            raise CheckFailed(say("fork.id_not_printed", new_id=child.stem, stdout=fork.result.stdout.strip()[:200]))
        lines, parent = read_lines(child), fork.parent.lines
        n = fork.at_seq
        for number in range(1, min(n, len(lines)) + 1):
            if lines[number - 1].raw != parent[number - 1]:
                if (lines[number - 1].data or {}).get("type") == "fork":  # the copy stopped short
                    raise CheckFailed(say("fork.copied_too_few", at=n, line=number, copied=number - 1))
                raise CheckFailed(say("fork.prefix_differs", line=number, at=n, what=fork.what),
                                  expected=parent[number - 1][:160].decode("utf-8", "replace"),
                                  seen=lines[number - 1].text(160))
        if len(lines) != n + 1:
            raise CheckFailed(say("fork.line_count", at=n, expected=n + 1, count=len(lines)))
        wanted = {"seq": n + 1, "type": "fork", "from": fork.parent.session_id, "atSeq": n}
        if not lines[n].raw.endswith(b"\n"):
            raise CheckFailed(say("fork.fork_event_unterminated", at=n), seen=lines[n].text(200))
        data = lines[n].data
        if data is None:
            raise CheckFailed(say("fork.fork_event_not_object", at=n), seen=lines[n].text(200))
        wrong = [key for key, value in wanted.items() if data.get(key) != value or type(data.get(key)) is not type(value)]
        if wrong:
            raise CheckFailed(say("fork.fork_event", at=n, field=wrong[0], value=json.dumps(data.get(wrong[0])),
                                  expected=json.dumps(wanted[wrong[0]])), seen=lines[n].text(200))
        if not is_utc(data.get("ts")):
            raise CheckFailed(say("fork.fork_event_ts", why=why_not_utc(data.get("ts"))))


def test_parent_untouched(ctx, forks):
    """A fork does not write the parent at all, also while another process has the session open for writing: its bytes, size, inode, mtime and ctime stay as they were."""
    say = ctx.say
    for fork in forks:
        _forked_child(ctx, fork)
        if not fork.path.is_file():
            raise CheckFailed(say("fork.parent_gone", at=fork.at_seq))
        now = _stat(fork.path)
        if now[:2] != fork.before[:2]:
            raise CheckFailed(say("fork.parent_changed", at=fork.at_seq, before=fork.before[1], after=now[1],
                                  lines=now[0].count(b"\n")))
        changed = [name for name, a, b in zip(("inode", "mtime", "ctime"), fork.before[2:], now[2:]) if a != b]
        if changed:
            raise CheckFailed(say("fork.parent_rewritten", at=fork.at_seq, what=", ".join(changed)))
    _fork_twice(ctx)


def _fork_twice(ctx) -> None:
    """One parent forked twice in the same second (the lab's fork, twice in one harness): two
    new sessions with their own ids, and the first child not written by the second fork."""
    say, rng = ctx.say, ctx.rng("fork-twice")
    log = loggen.two_round_log(rng)
    at = rng.choice(log.fork_points)
    root = scratch_with(ctx, "fork-twice", log)
    answer = call(ctx, "fork_twice", [{"sessions": str(root / ".sessions"), "parent": log.session_id, "at": at}],
                  "fork-twice")[0]
    problem = ctx.harness_problem(answer.get("first") if isinstance(answer.get("first"), dict) else {}, "fork()",
                          say("what.fork_first", at=at))
    if problem:
        raise problem
    first, second = answer.get("first"), answer.get("second")
    if isinstance(second, dict):
        raise CheckFailed(say("fork.second_failed", at=at, error=second.get("raised") or second.get("stub"),
                              where=second.get("where")), seen=", ".join(answer.get("files") or []))
    if first == second:
        raise CheckFailed(say("fork.same_id", at=at, new_id=first), expected=say("brief.two_ids"),
                          seen=", ".join(answer.get("files") or []))
    if answer.get("first_after") != answer.get("first_before"):
        raise CheckFailed(say("fork.first_child_written", at=at, first=first, second=second))
    if "sha" not in (answer.get("second_file") or {}):
        raise CheckFailed(say("fork.second_missing", at=at, second=second), seen=", ".join(answer.get("files") or []))


# The bonus checks live in bonus.py; collected from here, in course.toml's order.
from .bonus import *  # noqa: E402,F401,F403
