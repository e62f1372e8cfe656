"""Day 07 checks: session persistence - an append-only event log, resume, fork.

How the checks are built (the contract is shared/days/day-07.md):

* Checks 1-3 read the log of one live round 1 (`round1`, run once per grading).
* Check 4 runs round 1 in a workspace whose test suite signals that it started and
  then waits, reads the log while the tool runs, SIGKILLs the agent, reads again.
* Check 6 copies round 1's sessions dir, adds an older session whose file was
  modified later, and runs `--resume "fix it"` in a second process.
* Checks 5 and 7-11 run `log inspect ID --json` and `fork ID N` on canonical logs
  made once by the reference (day07/logs/, see day07/make_fixtures.py), so each
  check rests on one exercise point only.

Student code runs only in children (`python -m mca` or a `python -c` harness);
logs are parsed here, because the format is the contract. Failure wording lives in
day07/messages.toml. Nothing here writes into the lab: every file is in a scratch dir.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
import tomllib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from grader.checkkit import CheckFailed, ChildResult, ChildTimeout, wait_until
from grader.checkkit.messages import Messages
from grader.checkkit.sessionlog import Line, described, is_utc as _is_utc, logs_in, names, read_lines, sha256, shapes

say = Messages.for_day(Path(__file__).resolve().parent)

ROUND1 = "run the tests and tell me which case fails"
FAILING_CASE = "test_divide_by_zero"
ID_PATTERN = re.compile(r"s-(\d{8})-(\d{6})-[0-9a-f]{4}")
KNOWN_TYPES = ("message", "tool_end", "usage", "error", "fork")
SIGNAL_VAR = "GRADER_TESTS_STARTED"  # read by day07/blocking-workspace/test_calc.py
TURN_TIMEOUT = 30  # seconds for one agent turn; the mock needs well under one
TOOL_TIMEOUT = 10  # seconds for `log inspect` or `fork`: a stuck reader must not cost minutes
# Round 1 runs 8 hours east of UTC (a POSIX TZ string, no tz database needed), so an id
# or a ts made from local time cannot pass for UTC on a machine whose clock is in UTC.
NOT_UTC = {"TZ": "GRT-8"}
WAIT_TIMEOUT = 15  # seconds to wait for a signal from a running child
ROUND1_SHAPE = ["message system", "message user", "usage", "message assistant+tool_calls",
                "tool_end", "message tool", "usage", "message assistant"]


def workspace(ctx, name: str, kind: str = "workspace") -> tuple[Path, Path]:
    """A scratch dir with a copy of the sample workspace: (workspace, sessions dir path).
    kind "blocking": its test suite signals that it started, then waits (see blocking_prelude.py)."""
    ws = ctx.workspace(name)
    if kind == "blocking-workspace":
        tests = ws / "test_calc.py"
        tests.write_text((ctx.fixtures / "blocking_prelude.py").read_text(encoding="utf-8")
                         + tests.read_text(encoding="utf-8"), encoding="utf-8")
    return ws, ws.parent / "sessions"


def canonical(ctx, name: str, purpose: str) -> tuple[Path, str, Path]:
    """A scratch dir named after `purpose`, holding `.sessions/<id>.jsonl`, a copy of
    logs/<name>: (dir, id, log). Run `python -m mca log inspect ID` there by hand."""
    source = next((ctx.fixtures / "logs" / name).glob("*.jsonl"))
    root = ctx.tmp(purpose)
    (root / ".sessions").mkdir()
    target = root / ".sessions" / source.name
    shutil.copyfile(source, target)
    return root, source.stem, target


# --------------------------------------------------------------------------- children

def inspect(ctx, root: Path, session_id: str) -> dict:
    """`python -m mca log inspect ID --json` run in `root` (logs in root/.sessions)."""
    result = ctx.run_agent("log", "inspect", session_id, "--json", cwd=root, timeout=TOOL_TIMEOUT)
    ctx.expect_ok(result)
    for text in (result.stdout.strip(), *reversed(result.stdout.strip().splitlines())):
        try:
            report = json.loads(text)
        except ValueError:
            continue
        if isinstance(report, dict):
            return report
    raise CheckFailed(say("child.no_json", command=result.short_command()), seen=result.stdout[-300:])


def field(report: dict, name: str):
    """A value of the inspect report; a null one fails with the report's note about it."""
    value = report.get(name)
    if value is None:
        notes = [n for n in report.get("notes") or [] if not str(n).startswith("log stopped")]
        why = notes[0] if notes else say("child.json_null_why")
        raise CheckFailed(say("child.json_null", field=name, why=why))
    return len(value) if name == "events" and isinstance(value, list) else value


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
        self.ctx.expect_ok(self.result, say("round1.failed", command=self.result.short_command()))
        found = logs_in(self.sessions)
        others = [p for p in self.sessions.iterdir()] if self.sessions.is_dir() else []
        if len(found) != 1:
            raise CheckFailed(say("round1.no_log", seen=names(others)))
        return found[0]


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
    """A new session gets an id like s-YYYYMMDD-HHMMSS-xxxx and its log file in the sessions dir."""
    log = round1.log()
    match = ID_PATTERN.fullmatch(log.stem)
    if match is None:
        raise CheckFailed(say("round1.bad_name", name=log.name), expected="s-YYYYMMDD-HHMMSS-xxxx.jsonl",
                          seen=log.name)
    try:
        stamp = datetime.strptime("".join(match.groups()), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    except ValueError:
        raise CheckFailed(say("round1.bad_name", name=log.name)) from None
    now = round1.started
    if not now - timedelta(minutes=2) <= stamp <= datetime.now(timezone.utc) + timedelta(minutes=2):
        raise CheckFailed(say("round1.not_utc_now", now=f"{now:%Y%m%d-%H%M%S}", stamp=f"{stamp:%Y%m%d-%H%M%S}"))


def test_log_format(ctx, round1):
    """After round 1 the log holds exactly 8 lines, each one JSON object ending in a newline, with seq 1..8, a UTC ts and a known type."""
    lines = read_lines(round1.log())
    for line in lines:
        if not line.raw.endswith(b"\n"):
            raise CheckFailed(say("round1.line_unterminated", line=line.number))
        if line.data is None:
            raise CheckFailed(say("round1.line_not_object", line=line.number, why=_why_not_object(line.raw)),
                              seen=line.raw[:120].decode("utf-8", "replace"))
    if len(lines) != 8:
        raise CheckFailed(say("round1.line_count", count=len(lines)), expected=8, seen=shapes(lines))
    for line in lines:
        data = line.data
        if data.get("seq") != line.number or type(data.get("seq")) is not int:
            raise CheckFailed(say("round1.seq_wrong", expected=line.number, line=line.number, seen=data.get("seq")))
        if not _is_utc(data.get("ts")):
            raise CheckFailed(say("round1.ts_wrong", line=line.number, seen=data.get("ts")))
        if data.get("type") not in KNOWN_TYPES:
            raise CheckFailed(say("round1.type_unknown", line=line.number, seen=data.get("type")))


def _why_not_object(raw: bytes) -> str:
    try:
        return f"it is a JSON {type(json.loads(raw)).__name__}"
    except ValueError as exc:
        return f"not valid JSON: {exc}"


def test_event_order(ctx, round1):
    """A tool round is logged as usage, the assistant message with tool calls, its tool_end, then the tool result: 5 messages and 3 other events."""
    lines = read_lines(round1.log())
    seen = [line.kind for line in lines]
    if seen != ROUND1_SHAPE:
        raise CheckFailed(say("round1.order_wrong", expected=", ".join(ROUND1_SHAPE), seen=", ".join(seen)))
    call_id = (lines[3].message.get("tool_calls") or [{}])[0].get("id")
    ids = (lines[4].data.get("id"), lines[5].message.get("tool_call_id"))
    if ids != (call_id, call_id):
        raise CheckFailed(say("round1.tool_end_id", call_id=call_id, seen=" and ".join(map(str, ids))))


# --------------------------------------------------------------------------- killed mid-tool

def kill_during_tests(ctx, name: str) -> tuple[Path, Path, list[Line], list[Line]]:
    """Run round 1 on the blocking workspace, read the log while the tests run, SIGKILL.

    Returns (workspace, sessions dir, lines while the tool ran, lines after the kill).
    """
    ws, sessions = workspace(ctx, name, "blocking-workspace")
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
                raise CheckFailed(say("live.never_started", status=result.returncode), seen=ctx.evidence(result))
            logs = logs_in(sessions)
            during = read_lines(logs[0]) if len(logs) == 1 else []
            child.kill()
            child.wait(5)
        finally:
            (ws.parent / "tests-started.release").touch()  # a stray test run stops waiting too
    logs = logs_in(sessions)
    after = read_lines(logs[0]) if len(logs) == 1 else []
    return ws, sessions, during, after


def test_written_as_it_happens(ctx):
    """While the tool is still running, events 1-4 are already on disk, and a SIGKILL loses none of them."""
    _, _, during, after = kill_during_tests(ctx, "written-as-it-happens")
    expected = ROUND1_SHAPE[:4]
    seen = described(during)
    if [line.kind for line in during] != expected or any(not line.raw.endswith(b"\n") for line in during):
        raise CheckFailed(say("live.not_on_disk", seen=seen), expected=", ".join(expected), seen=seen)
    if [line.raw for line in after] != [line.raw for line in during]:
        raise CheckFailed(say("live.lost_on_kill", count=len(during),
                              seen=described(after)))
    if after and not after[-1].raw.endswith(b"\n"):
        raise CheckFailed(say("live.torn_after_kill"))


# --------------------------------------------------------------------------- replay and resume

def test_replay_counts(ctx):
    """Replaying the round-1 log rebuilds 5 messages, skips the 3 other events, and gives a token estimate above zero."""
    root, session_id, _ = canonical(ctx, "round1", "replay-counts")
    report = inspect(ctx, root, session_id)
    replayed, skipped = field(report, "replayed"), field(report, "skipped")
    if (replayed, skipped) != (5, 3):
        raise CheckFailed(say("replay.counts", replayed=replayed, skipped=skipped),
                          expected="replayed 5, skipped 3", seen=f"replayed {replayed}, skipped {skipped}")
    tokens = field(report, "token_estimate")
    if not isinstance(tokens, (int, float)) or tokens <= 0:
        raise CheckFailed(say("replay.tokens", seen=tokens))


def first_sentence(text: str) -> str:
    text = " ".join(str(text).split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return match.group(1) if match else text


def test_resume_across_processes(ctx, round1):
    """A second process started with --resume continues the latest session, and its first sentence names test_divide_by_zero."""
    try:
        log = round1.log()
    except CheckFailed as exc:
        raise CheckFailed(say("resume.round1_failed"), seen=exc.seen or exc.message) from None
    root = ctx.tmp("resume-across-processes")
    ws, sessions = root / "workspace", root / "sessions"
    shutil.copytree(round1.workspace, ws)
    shutil.copytree(round1.sessions, sessions)
    # An older session (by name) whose file was touched later: "latest" means by name.
    decoy_source = next((ctx.fixtures / "logs" / "hello").glob("*.jsonl"))
    decoy = sessions / decoy_source.name
    shutil.copyfile(decoy_source, decoy)
    later = time.time() + 3600
    os.utime(decoy, (later, later))

    result = ctx.run_agent("--yes", "--resume", "--sessions-dir", str(sessions), "fix it", cwd=ws)
    reply, where = None, None
    for path in logs_in(sessions):
        lines = read_lines(path)
        asked = [i for i, line in enumerate(lines) if line.message.get("role") == "user"
                 and str(line.message.get("content", "")).strip() == "fix it"]
        if asked:
            answers = [line for line in lines[asked[0] + 1:] if line.message.get("role") == "assistant"]
            reply, where = (answers[0].message if answers else None), path
            break
    if where == decoy:
        raise CheckFailed(say("resume.wrong_session", latest=log.stem, chosen=decoy.stem))
    ctx.expect_ok(result, say("resume.failed", command=result.short_command(), status=result.returncode))
    if reply is None:
        raise CheckFailed(say("resume.no_reply", stdout=" ".join(result.stdout.split())[:300] or "(nothing)"))
    sentence = first_sentence(reply.get("content") or "")
    if FAILING_CASE not in sentence:
        extra = say("resume.no_record") if "no record" in sentence.lower() else ""
        raise CheckFailed(say("resume.not_named", sentence=sentence) + extra,
                          expected=f"a first sentence naming {FAILING_CASE}", seen=sentence)


# --------------------------------------------------------------------------- reading damaged logs

def cut_last_line(path: Path, keep_newline_only: bool = False) -> None:
    """Tear the last line: cut it in half, or drop only its newline."""
    data = path.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    end = len(data) - 1 if keep_newline_only else start + (len(data) - start) // 2
    path.write_bytes(data[:end])


def replace_line(path: Path, number: int, change) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    lines[number - 1] = change(lines[number - 1])
    path.write_bytes(b"".join(lines))


def expect_stop(ctx, root: Path, session_id: str, log: Path, line: int, what: str) -> None:
    """Inspect a damaged log: it must stop at `line` with a reason, return the events
    before it and nothing after, and leave the file as it was."""
    before, size = sha256(log), log.stat().st_size
    report = inspect(ctx, root, session_id)
    events, stopped_at, reason = field(report, "events"), report.get("stopped_at"), report.get("reason")
    last_seq = report.get("last_seq")
    if stopped_at is None:
        raise CheckFailed(say("read.stop_silent", line=line, what=what, events=events),
                          expected=f"stopped_at {line} with a reason", seen=f"{events} events, stopped_at null")
    if stopped_at != line:
        raise CheckFailed(say("read.stop_elsewhere", line=line, what=what, seen_line=stopped_at, reason=reason))
    if not reason or not str(reason).strip():
        raise CheckFailed(say("read.no_reason", line=line))
    if events != line - 1 or last_seq != line - 1:
        raise CheckFailed(say("read.events_wrong", expected=line - 1, line=line, events=events, last_seq=last_seq))
    if sha256(log) != before:
        raise CheckFailed(say("read.file_changed", before=size, after=log.stat().st_size))


def test_torn_tail(ctx):
    """A log whose last line was cut in half reads as its 7 complete events, reports line 8 as torn, and is left unchanged."""
    for newline_only, what in ((False, say("read.torn_cut")), (True, say("read.torn_newline"))):
        root, session_id, log = canonical(ctx, "round1", "torn-tail")
        cut_last_line(log, keep_newline_only=newline_only)
        expect_stop(ctx, root, session_id, log, 8, what)


def test_bad_line_stops(ctx):
    """A corrupt line in the middle (bad JSON, or a repeated seq) stops reading at that line; nothing after it is returned."""
    root, session_id, log = canonical(ctx, "round1", "bad-line-stops-json")
    replace_line(log, 4, lambda raw: b"{oops\n")
    expect_stop(ctx, root, session_id, log, 4, say("read.bad_json"))

    def repeat_seq(raw: bytes) -> bytes:
        data = json.loads(raw)
        data["seq"] = 5
        return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")

    root, session_id, log = canonical(ctx, "round1", "bad-line-stops-seq")
    replace_line(log, 6, repeat_seq)
    expect_stop(ctx, root, session_id, log, 6, say("read.repeated_seq"))


# --------------------------------------------------------------------------- fork

def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\w-])\d+(?![\w-])", ID_PATTERN.sub(" ", text))}


def test_fork_points(ctx):
    """On the two-round log the fork points are exactly 2, 8, 9 and 19, and forking at 4 is refused with the valid points named."""
    root, session_id, log = canonical(ctx, "two-rounds", "fork-points")
    points = field(inspect(ctx, root, session_id), "fork_points")
    if points != [2, 8, 9, 19]:
        raise CheckFailed(say("fork.points_wrong", seen=points), expected=[2, 8, 9, 19], seen=points)
    result = ctx.run_agent("fork", session_id, "4", cwd=root, timeout=TOOL_TIMEOUT)
    made = [p for p in logs_in(root / ".sessions") if p != log]
    if result.returncode == 0:
        raise CheckFailed(say("fork.not_refused", made=names(made)))
    said = " ".join((result.stderr + " " + result.stdout).split())
    if not {2, 8, 9, 19} <= numbers_in(said):
        raise CheckFailed(say("fork.refusal_silent", said=said[:300] or "(nothing)"))
    if made:
        raise CheckFailed(say("fork.refused_but_made", made=names(made)))


@dataclass
class Forked:
    root: Path
    parent_id: str
    parent: Path
    original: bytes
    result: ChildResult


@pytest.fixture(scope="module")
def fork8(ctx) -> Forked:
    """`python -m mca fork ID 8` on a copy of the two-round log, run once for checks 10 and 11."""
    root, session_id, log = canonical(ctx, "two-rounds", "fork-at-8")
    original = log.read_bytes()
    return Forked(root, session_id, log, original, ctx.run_agent("fork", session_id, "8", cwd=root, timeout=TOOL_TIMEOUT))


def test_fork_copies_prefix(ctx, fork8):
    """Forking at 8 makes a new session whose first 8 lines equal the parent's byte for byte, followed by one fork event with seq 9."""
    result = fork8.result
    ctx.expect_ok(result, say("fork.failed", status=result.returncode))
    made = [p for p in logs_in(fork8.root / ".sessions") if p != fork8.parent]
    if len(made) != 1:
        raise CheckFailed(say("fork.new_files", seen=names(made)))
    child = made[0]
    if child.stem not in result.stdout:
        raise CheckFailed(say("fork.id_not_printed", new_id=child.stem, stdout=result.stdout.strip()[:200]))
    lines = child.read_bytes().splitlines(keepends=True)
    parent_lines = fork8.original.splitlines(keepends=True)
    for number in range(1, min(8, len(lines)) + 1):
        if lines[number - 1] != parent_lines[number - 1]:
            raise CheckFailed(say("fork.prefix_differs", line=number, seen=lines[number - 1][:160].decode("utf-8", "replace")),
                              expected=parent_lines[number - 1][:160].decode("utf-8", "replace"))
    if len(lines) != 9:
        raise CheckFailed(say("fork.line_count", count=len(lines)))
    last = read_lines(child)[8]
    data = last.data or {}
    if not (last.raw.endswith(b"\n") and data.get("type") == "fork" and data.get("seq") == 9
            and data.get("from") == fork8.parent_id and data.get("atSeq") == 8 and _is_utc(data.get("ts"))):
        raise CheckFailed(say("fork.fork_event", parent=fork8.parent_id, seen=last.raw[:200].decode("utf-8", "replace")))


def test_parent_untouched(ctx, fork8):
    """Forking leaves the parent log byte-identical (same size, same sha256)."""
    if fork8.result.returncode != 0:
        raise CheckFailed(say("fork.no_fork", status=fork8.result.returncode), seen=ctx.evidence(fork8.result))
    if not [p for p in logs_in(fork8.root / ".sessions") if p != fork8.parent]:
        raise CheckFailed(say("fork.nothing_made"))  # a fork that did nothing proves nothing about the parent
    now = fork8.parent.read_bytes() if fork8.parent.is_file() else b""
    if now != fork8.original:
        raise CheckFailed(say("fork.parent_changed", before=len(fork8.original),
                              before_sha=hashlib.sha256(fork8.original).hexdigest()[:12], after=len(now),
                              lines=len(now.splitlines()), after_sha=hashlib.sha256(now).hexdigest()[:12]))


# --------------------------------------------------------------------------- bonus checks

def test_resume_unknown_id(ctx):
    """Resuming an unknown id exits with status 1, names the id and the sessions dir, and creates nothing."""
    ws, sessions = workspace(ctx, "resume-unknown-id")
    before = sorted(p.name for p in ws.parent.rglob("*"))
    unknown = "s-20990101-000000-abcd"
    result = ctx.run_agent("--yes", "--sessions-dir", str(sessions), "--resume", unknown, "hi", cwd=ws)
    if result.returncode != 1:
        raise CheckFailed(say("bonus.unknown_status", status=result.returncode), seen=ctx.evidence(result))
    said = " ".join((result.stderr + " " + result.stdout).split())
    if unknown not in said or str(sessions) not in said:
        raise CheckFailed(say("bonus.unknown_silent", session_id=unknown, sessions=sessions, said=said[:300]))
    made = sorted(set(p.name for p in ws.parent.rglob("*")) - set(before))
    if made:
        raise CheckFailed(say("bonus.unknown_created", made=", ".join(made)))


def test_damaged_then_continue(ctx):
    """After a torn tail, resume reports the stop line and keeps working; a second resume keeps the new events and the damaged file is unchanged."""
    ws, sessions = workspace(ctx, "damaged-then-continue")
    source = next((ctx.fixtures / "logs" / "round1").glob("*.jsonl"))
    sessions.mkdir()
    damaged = sessions / source.name
    shutil.copyfile(source, damaged)
    cut_last_line(damaged)
    torn = damaged.read_bytes()

    first = ctx.run_agent("--yes", "--resume", source.stem, "--sessions-dir", str(sessions), "hi", cwd=ws)
    if first.returncode != 0:
        raise CheckFailed(say("bonus.damaged_failed", command=first.short_command(), status=first.returncode),
                          seen=ctx.evidence(first))
    said = " ".join((first.stderr + " " + first.stdout).split())
    if not re.search(r"\bline 8\b", said):
        raise CheckFailed(say("bonus.damaged_silent", said=said[:300]))
    if damaged.read_bytes() != torn:
        raise CheckFailed(say("bonus.damaged_changed"))
    made = [p for p in logs_in(sessions) if p != damaged]
    if len(made) != 1:
        raise CheckFailed(say("bonus.damaged_no_fork", made=names(made)))
    recovery = made[0]
    kept = recovery.read_bytes()

    second = ctx.run_agent("--yes", "--resume", "--sessions-dir", str(sessions), "hi again", cwd=ws)
    if second.returncode != 0:
        raise CheckFailed(say("bonus.damaged_failed", command=second.short_command(), status=second.returncode),
                          seen=ctx.evidence(second))
    now = recovery.read_bytes() if recovery.is_file() else b""
    asked = [line for line in read_lines(recovery) if line.message.get("content") == "hi again"]
    if not now.startswith(kept) or len(now) == len(kept) or not asked:
        seen = ("its events changed" if not now.startswith(kept)
                else f"it did not grow; the sessions dir holds {names(logs_in(sessions))}")
        raise CheckFailed(say("bonus.damaged_lost", session=recovery.stem, seen=seen))
    if damaged.read_bytes() != torn:
        raise CheckFailed(say("bonus.damaged_changed"))


def test_dangling_tool_call(ctx):
    """Killed while a tool ran, the session resumes from the last fork point and never sends a tool call without its result."""
    ws, sessions, _, after = kill_during_tests(ctx, "dangling-tool-call")
    if [line.kind for line in after] != ROUND1_SHAPE[:4]:
        raise CheckFailed(say("bonus.killed_empty", seen=described(after)))
    killed = logs_in(sessions)[0]
    before = killed.read_bytes()
    result = ctx.run_agent("--yes", "--resume", killed.stem, "--sessions-dir", str(sessions), "hi", cwd=ws)
    if result.returncode != 0:
        raise CheckFailed(say("bonus.dangling_failed", command=result.short_command(), status=result.returncode),
                          seen=ctx.evidence(result))
    if killed.read_bytes() != before:
        raise CheckFailed(say("bonus.dangling_changed"))
    made = [p for p in logs_in(sessions) if p != killed]
    if len(made) != 1:
        raise CheckFailed(say("bonus.dangling_no_fork", made=names(made)))
    lines = read_lines(made[0])
    # The same first two events (compared as data: byte-exact copying is fork-copies-prefix's job).
    same = [(line.data or {}).get("seq") for line in lines[:2]] == [1, 2] and \
        [line.message for line in lines[:2]] == [line.message for line in after[:2]]
    if not same or any(line.message.get("tool_calls") for line in lines[:3]):
        raise CheckFailed(say("bonus.dangling_prefix", seen=f"it holds {shapes(lines)}"))
    for index, line in enumerate(lines):
        for call in line.message.get("tool_calls") or []:
            answered = set()
            for later in lines[index + 1:]:
                if later.message.get("role") in ("user", "assistant"):
                    break
                answered.add(later.message.get("tool_call_id"))
            if call.get("id") not in answered:
                raise CheckFailed(say("bonus.dangling_call", call_id=call.get("id"), seq=line.number))


def test_unknown_type_tolerated(ctx):
    """An event of a type the code does not know is kept, replays as skipped, and does not stop reading."""
    root, session_id, log = canonical(ctx, "round1", "unknown-type-tolerated")
    out = []
    for number, raw in enumerate(log.read_bytes().splitlines(keepends=True), start=1):
        data = json.loads(raw)
        data["seq"] = number + (number > 5)  # make room for seq 6
        out.append(data)
        if number == 5:  # after the tool_end: an event from a newer version
            out.append({"seq": 6, "ts": data["ts"], "type": "future_thing", "detail": {"x": 1}})
    log.write_bytes(b"".join((json.dumps(d, ensure_ascii=False) + "\n").encode("utf-8") for d in out))
    report = inspect(ctx, root, session_id)
    seen = {k: report.get(k) for k in ("events", "stopped_at", "replayed", "skipped")}
    if seen != {"events": 9, "stopped_at": None, "replayed": 5, "skipped": 4}:
        notes = [n for n in report.get("notes") or [] if "not implemented" in n]
        raise CheckFailed(say("bonus.unknown_type", seen=notes[0] if notes else seen))


APPEND_HARNESS = r"""
import json, os, sys
from pathlib import Path
if not os.path.exists("/proc/self/io"):
    print(json.dumps({"skip": True})); sys.exit(0)
def wchar():
    with open("/proc/self/io", "rb") as handle:
        for line in handle:
            if line.startswith(b"wchar:"):
                return int(line.split()[1])
from mca.session.log import SessionLog
log = SessionLog.open_append(Path(sys.argv[1]), int(sys.argv[2]))
before = wchar()
log.append("usage", input_tokens=1, output_tokens=1)
after = wchar()
log.close()
print(json.dumps({"written": after - before}))
"""


def test_append_is_incremental(ctx):
    """Appending to a long log writes one line's bytes, not the whole file."""
    root = ctx.tmp("append-is-incremental")
    log = root / "s-20260101-000000-0000.jsonl"
    line = '{"seq": %d, "ts": "2026-01-01T00:00:00.000Z", "type": "usage", "input_tokens": 1, "output_tokens": 1}\n'
    body = "".join(line % seq for seq in range(1, 10_001)).encode("utf-8")
    log.write_bytes(body)
    result = ctx.run_harness(ctx.harness("append", APPEND_HARNESS), str(log), "10000", cwd=root)
    ctx.expect_ok(result)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    if report.get("skip"):
        pytest.skip(say("bonus.no_proc_io"))
    now = log.read_bytes()
    tail = now[len(body):]
    if not now.startswith(body) or tail.count(b"\n") != 1 or not tail.endswith(b"\n"):
        added = tail.count(b"\n")
        seen = "the first 10,000 lines changed" if not now.startswith(body) else f"it added {added} lines"
        raise CheckFailed(say("bonus.append_wrong_line", seen=seen))
    if report["written"] > 4 * len(tail) + 4096:
        raise CheckFailed(say("bonus.append_not_incremental", line=len(tail), written=report["written"]))


def test_single_writer(ctx):
    """A second process that resumes a session still being written is refused, never interleaved silently."""
    ws, sessions = workspace(ctx, "single-writer")
    with ctx.start_agent("--yes", "--sessions-dir", str(sessions), cwd=ws) as writer:
        writer.send("hi\n")

        def answered():
            found = logs_in(sessions)
            return found and any(line.message.get("role") == "assistant" for line in read_lines(found[0]))

        if not wait_until(lambda: answered() or not writer.running(), ctx.scaled(WAIT_TIMEOUT)) or not answered():
            found = logs_in(sessions)
            seen = shapes(read_lines(found[0])) if found else "no log"
            raise CheckFailed(say("bonus.writer_not_ready", seconds=WAIT_TIMEOUT, seen=seen))
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
