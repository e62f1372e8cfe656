"""Day 04 checks: write tools and the shell - the first real change to code.

The contract is shared/days/day-04.md. How the checks get their inputs:

* fix-and-verify runs the lab's agent with the mock on a workspace copy to which
  the grader added functions and passing tests of its own (names and numbers drawn
  per run), then runs the suite itself;
* the edit, write and command checks make tool calls through the lab's ToolRegistry
  in a harness child (harnesses/tool_calls.py), on files, names and outputs
  generated for this run (ASCII, CJK, emoji), and judge the files in the grader:
  "unchanged" means not written at all (same inode, mtime and bytes);
* timeout-kills-group runs a real command whose processes the harness finds from outside
  (its own process tree in /proc, as the subreaper of all it starts; never a PID file or a
  variable the lab could read), and proves each PID is its own before it looks at it
  (harnesses/timeout_group.py);
* write-is-atomic forks a writer that calls the lab's write_file on a large file in a
  loop and SIGKILLs it 20 times at random moments spread over a timed write, then
  writers killed by their own rename (whose os.fsync calls are watched), then first
  writes of a new file killed at random moments and at their open of the target's own
  name (harnesses/atomic_writer.py). Every draw has all of these: overwrites, a first
  write of a new file, a rename onto the target.

Student code runs only in children. Wording lives in messages.toml.
"""

from __future__ import annotations

import re
import shlex
import stat
from pathlib import Path

from grader.checkkit import CheckFailed
from grader.checkkit.draws import CJK_WORDS, EMOJI, mixed_text
from grader.checkkit.links import symlink

from . import inputs
from .calls import (Stamp, read_text, refused, said, sha, stub_in, tool_calls, tree,
                    write_text)

PROMPT = "run the tests and fix the failing case"
RETRIES = 2  # times a timeout check runs again when its command's processes never started (load)
BUGGY_LINE = "    return a / b"
GUARDED_LINE = '    if b == 0:\n        raise ValueError("cannot divide by zero")\n    return a / b'
TIMED_OUT = re.compile(r"timed?[ -]?out\b[^0-9\n]{0,12}?(\d+(?:\.\d+)?)\s*(?:s\b|sec|seconds?\b)", re.IGNORECASE)
STATUS = re.compile(r"\b(?:exit(?:ed)?(?:\s+with)?(?:[ _-]?(?:status|code))?|return[ _]?code|status)\s*[:=]?\s*"
                    r"(-?\d+)\b", re.IGNORECASE)
# A declared cut, in the usual words: "[... 1234 of 5678 characters cut ...]", "(output truncated)",
# "[3000 chars omitted]", "... 40 more lines ...", "(shortened)", "(rest not shown)".
CUT = re.compile(r"\b(?:cut|truncat\w*|omitted|elided|skipped|dropped|shortened|abridged|removed|not shown|"
                 r"left out|\d[\d,_]* more (?:characters|chars|bytes|lines))\b", re.IGNORECASE)


# --------------------------------------------------------------------------- the whole scenario

def calc_additions(rng):
    """Functions appended to calc.py and a test file for them: (code, test file name, test code, cases)."""
    functions, cases = [], []
    for _ in range(rng.randint(1, 2)):
        name, extra = inputs.word(rng, (5, 9)), rng.randint(2, 99)
        note = f"{rng.choice(CJK_WORDS)} {rng.choice(EMOJI)} {inputs.word(rng)}"
        functions.append(f"\n\n# {note}\ndef {name}(a, b):\n    return a * b + {extra}\n")
        for _ in range(rng.randint(1, 2)):
            a, b = rng.randint(-50, 50), rng.randint(-50, 50)
            cases.append(f"    def test_{name}_{inputs.word(rng, (3, 6))}(self):\n"
                         f"        self.assertEqual(calc.{name}({a}, {b}), {a * b + extra})\n")
    test_name = f"test_{inputs.word(rng)}.py"
    test_code = ("import unittest\n\nimport calc\n\n\nclass Extra(unittest.TestCase):\n" + "\n".join(cases)
                 + "\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
    return "".join(functions), test_name, test_code, len(cases)


def tool_lines(stderr: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The calls the agent reported (`-> name ...`) and their outcomes (`<- name ok|failed`)."""
    calls = re.findall(r"^\s*-> (\w+)", stderr, re.MULTILINE)
    outcomes = re.findall(r"^\s*<- (\w+) (ok|failed)", stderr, re.MULTILINE)
    return calls, outcomes


def test_fix_and_verify(ctx):
    """With the mock, "run the tests and fix the failing case" runs the suite, edits the one line of calc.py that lets a zero divisor through, runs the suite again and reports the drawn number of tests all passing."""
    say, rng = ctx.say, ctx.rng("fix-and-verify")
    ws = ctx.workspace("fix-and-verify")
    calc = ws / "calc.py"
    added, test_name, test_code, extra_cases = calc_additions(rng)
    write_text(calc, read_text(calc).rstrip("\n") + "\n" + added)
    write_text(ws / test_name, test_code)
    before = {p.name: read_text(p) for p in ws.iterdir() if p.is_file()}
    assert before["calc.py"].count(BUGGY_LINE) == 1, "the generated calc.py must hold the buggy line once"
    total = 4 + extra_cases

    result = ctx.run_agent(PROMPT, cwd=ws)
    ctx.expect_ok(result, say("fix.failed", command=result.short_command(), status=result.returncode))
    calls, outcomes = tool_lines(result.stderr)
    expected_calc = before["calc.py"].replace(BUGGY_LINE, GUARDED_LINE)
    after = read_text(calc)
    if after == before["calc.py"]:
        if "edit_file" not in calls:
            raise CheckFailed(say("fix.no_edit", calls=", ".join(calls) or say("brief.none")),
                              seen=" | ".join(result.stdout.strip().splitlines())[-300:] or say("brief.no_stdout"))
        failed = [name for name, state in outcomes if state == "failed"]
        raise CheckFailed(say("fix.edit_failed", failed=", ".join(failed) or say("brief.none")),
                          seen=" | ".join(result.stdout.strip().splitlines())[-300:])
    if after != expected_calc:
        raise CheckFailed(say("fix.wrong_edit"), expected=say("brief.guarded", lines=before["calc.py"].count(chr(10))),
                          seen=changed_lines(say, before["calc.py"], after))
    for name, text in before.items():
        if name != "calc.py" and read_text(ws / name) != text:
            raise CheckFailed(say("fix.touched", name=name))
    left = sorted(p.name for p in ws.iterdir() if p.name not in before and p.name != "__pycache__")
    if left:
        raise CheckFailed(say("fix.left_behind", names=", ".join(left)))
    if calls != ["run_command", "edit_file", "run_command"]:
        raise CheckFailed(say("fix.calls"), expected="run_command, edit_file, run_command",
                          seen=", ".join(calls) or say("brief.no_calls"))
    final = f"All {total} tests pass."
    if final not in result.stdout:
        raise CheckFailed(say("fix.no_report", total=total), expected=final,
                          seen=result.stdout.strip().splitlines()[-1] if result.stdout.strip() else say("brief.nothing"))


def changed_lines(say, before: str, after: str) -> str:
    old, new = before.splitlines(), after.splitlines()
    gone = [line for line in old if line not in new]
    came = [line for line in new if line not in old]
    return say("brief.changed_lines", removed=gone[:3], added=came[:3])


# --------------------------------------------------------------------------- E1: edit_file

def applied(ctx, entry: dict, path: Path, expected: str, what: str) -> None:
    """A unique edit: accepted, and the file is exactly the original with that one replacement."""
    stub_in(ctx, entry, "edit_file")
    if refused(entry):
        raise CheckFailed(ctx.say("edit.unique_refused", what=what), seen=said(entry))
    now = read_text(path)
    if now != expected:
        raise CheckFailed(ctx.say("edit.unique_wrong", what=what),
                          expected=ctx.say("brief.one_replacement", count=len(expected)),
                          seen=ctx.say("brief.chars_then", count=len(now or ""),
                                       then=changed_lines(ctx.say, expected, now or "")))


def unchanged(ctx, entry: dict, before: dict, kind: str, count: int = 0) -> None:
    """A refused edit wrote nothing: same inode, mtime, size and bytes."""
    if entry.get("watch") != before:
        raise CheckFailed(ctx.say("edit.written_anyway", kind=kind, count=count),
                          expected=ctx.say("brief.not_written"), seen=f"{before} -> {entry.get('watch')}")


def test_edit_ambiguous_refused(ctx):
    """edit_file refuses old text that appears 2 or 3 times (a whole line, or a piece inside lines, twice on one of them) and says how many times."""
    say, rng = ctx.say, ctx.rng("edit-ambiguous-refused")
    work = ctx.tmp("edit-ambiguous") / "work"
    name = inputs.file_name(rng, ".py")
    text, repeated, line_count, piece, piece_count, unique = inputs.ambiguous_file(rng)
    new = [f"{inputs.word(rng)} = \"{mixed_text(rng, (3, 5))}\"".replace("\n", " ") for _ in range(3)]
    path = work / name
    write_text(path, text)
    before = Stamp.of(path).__dict__
    cases = [(say("what.whole_line"), repeated, line_count), (say("what.piece"), piece, piece_count)]
    rng.shuffle(cases)
    calls = [["edit_file", {"path": name, "old": old, "new": new[i]}] for i, (_, old, _) in enumerate(cases)]
    calls.append(["edit_file", {"path": name, "old": unique, "new": "    " + new[2]}])
    results = tool_calls(ctx, "edit-ambiguous", work, calls, watch=path)
    for index, ((kind, old, count), entry) in enumerate(zip(cases, results)):
        stub_in(ctx, entry, "edit_file")
        if not refused(entry):
            now, given = (entry.get("watch") or {}).get("sha"), new[index]
            how = say("brief.every_replaced" if now == sha(text.replace(old, given))
                      else "brief.first_replaced" if now == sha(text.replace(old, given, 1))
                      else "brief.left_as_it_was" if now == sha(text) else "brief.file_changed")
            raise CheckFailed(say("edit.ambiguous_accepted", kind=kind, count=count, how=how), seen=said(entry))
        if not re.search(rf"(?<![\d.]){count}(?![\d.])", entry["content"]):
            raise CheckFailed(say("edit.no_count", kind=kind, count=count), seen=said(entry))
        unchanged(ctx, entry, before, kind, count)
    applied(ctx, results[-1], path, text.replace(unique, "    " + new[2]), say("what.two_unique_lines"))


def test_edit_missing_refused(ctx):
    """edit_file refuses old text that is not in the file (a near miss, other whitespace, text from elsewhere, one letter in another case, one letter replaced by a regex `.`)."""
    say, rng = ctx.say, ctx.rng("edit-missing-refused")
    work = ctx.tmp("edit-missing") / "work"
    name = inputs.file_name(rng, ".py")
    text, lines, misses, target = inputs.missing_cases(rng)
    present = rng.choice([line for line in lines if line != target and text.count(line) == 1])
    replacement = f"    {inputs.word(rng)} = \"{rng.choice(CJK_WORDS)}{rng.choice(EMOJI)}\""
    path = work / name
    write_text(path, text)
    before = Stamp.of(path).__dict__
    calls = [["edit_file", {"path": name, "old": old, "new": replacement}] for _, old in misses]
    calls.append(["edit_file", {"path": name, "old": present, "new": replacement}])
    results = tool_calls(ctx, "edit-missing", work, calls, watch=path)
    for (kind, old), entry in zip(misses, results):
        kind = say(kind)
        stub_in(ctx, entry, "edit_file")
        if not refused(entry):
            raise CheckFailed(say("edit.missing_accepted", kind=kind), seen=said(entry))
        unchanged(ctx, entry, before, kind)
    applied(ctx, results[-1], path, text.replace(present, replacement), say("what.unique_line"))


# --------------------------------------------------------------------------- E2: the time limit

def test_timeout_kills_group(ctx):
    """A command that starts a grandchild (deaf to SIGTERM, found by the grader from outside, not from a file the lab could read) and outlives its time limit: the tool returns within the limit plus 2 s, and afterwards neither the shell nor the grandchild is running."""
    say, rng = ctx.say, ctx.rng("timeout-kills-group")
    work = ctx.tmp("timeout-kills-group") / "work"
    work.mkdir()
    limit = round(rng.uniform(0.3, 0.6), 2)
    sleep = round(rng.uniform(20, 40), 1)
    other = round(sleep + rng.uniform(0.5, 9.5), 1)
    # The harness finds these processes from outside (its own process tree, as their subreaper), never
    # from a file or a variable the lab could read: no PID file to kill by. Each one's sleep is its
    # name there: a command line only it has.
    command = (f"sh -c 'trap \"\" TERM; exec sleep {sleep}' & "  # deaf to SIGTERM
               f"sleep {other} & wait")
    job = {"workdir": str(work), "timeout": limit, "command": command, "grace": 2.5, "settle": 0.5,
           "roles": {"shell": None, "grandchild": f"{sleep}", "sleeper": f"{other}"}}
    script = ctx.harness("timeout_group")
    answer = ctx.harness_json("timeout_group", job, calls="run_command", label="timeout-kills-group",
                              timeout=limit + 10, script=script)
    for _ in range(RETRIES):  # a loaded machine: again, each time with 4 times the time to start
        if (answer.get("pids_written") or {}).get("grandchild"):
            break
        limit = job["timeout"] = round(limit * 4, 2)
        answer = ctx.harness_json("timeout_group", job, calls="run_command", label="timeout-kills-group",
                                  timeout=limit + 10, script=script)
    seconds, alive = answer.get("seconds"), answer.get("alive") or {}
    if not (answer.get("pids_written") or {}).get("grandchild"):
        raise CheckFailed(say("timeout.no_grandchild", limit=limit), seen=said(answer.get("result") or {}))
    if alive.get("grandchild") and not alive.get("shell") and not alive.get("sleeper"):
        raise CheckFailed(say("timeout.term_only", limit=limit, after=answer.get("after")),
                          expected=say("brief.no_process_left"), seen=say("timeout.came_back", how=came_back(say, answer)))
    if alive.get("grandchild"):
        raise CheckFailed(say("timeout.grandchild_alive", limit=limit, after=answer.get("after")),
                          expected=say("brief.no_process_left"),
                          seen=say("timeout.came_back", how=came_back(say, answer)))
    if not answer.get("returned"):
        raise CheckFailed(say("timeout.hung", limit=limit, grace=2), expected=say("brief.back_within", seconds=limit + 2),
                          seen=say("brief.still_waiting", seconds=seconds))
    if alive.get("shell"):
        raise CheckFailed(say("timeout.shell_alive", limit=limit))
    if seconds > limit + 2.0:
        raise CheckFailed(say("timeout.slow", limit=limit, seconds=seconds),
                          expected=say("brief.at_most_seconds", seconds=limit + 2),
                          seen=f"{seconds} s")
    if seconds < limit * 0.8:
        raise CheckFailed(say("timeout.early", limit=limit, seconds=seconds), seen=came_back(say, answer))
    escaped_pipe_holder(ctx, rng, work)


def escaped_pipe_holder(ctx, rng, work: Path) -> None:
    """A process of the command that left its group (a session of its own) keeps the output
    pipe open: the group kill cannot reach it, so only a bounded drain brings the call back."""
    say = ctx.say
    limit, grace = round(rng.uniform(0.4, 0.8), 2), 2 + ctx.scaled(6)
    code = "import os, sys, time; os.setsid(); time.sleep(float(sys.argv[1]))"
    away = round(grace + rng.uniform(30, 40), 1)
    command = (f"python -S -c {shlex.quote(code)} {away} & "
               f"sleep {round(away + rng.uniform(0.5, 5), 1)}; true")
    job = {"workdir": str(work), "timeout": limit, "command": command, "grace": grace, "settle": 0.5,
           "roles": {"shell": None, "escaped": f"{away}"}, "wait_for": ["shell"]}
    script = ctx.harness("timeout_group")
    answer = ctx.harness_json("timeout_group", job, calls="run_command", label="timeout-escaped",
                              timeout=limit + grace + 10, script=script)
    for _ in range(RETRIES):
        if (answer.get("pids_written") or {}).get("escaped"):
            break
        # A loaded machine: again, with time to start. The same script and job file, so
        # the report (its reproduce line) does not depend on how busy the machine was.
        limit = job["timeout"] = round(limit * 4, 2)
        answer = ctx.harness_json("timeout_group", job, calls="run_command", label="timeout-escaped",
                                  timeout=limit + grace + 10, script=script)
    if not (answer.get("pids_written") or {}).get("escaped"):
        raise CheckFailed(say("timeout.no_grandchild", limit=limit), seen=said(answer.get("result") or {}))
    if not answer.get("returned"):
        raise CheckFailed(say("timeout.drain_unbounded", limit=limit, grace=round(grace, 1)),
                          expected=say("brief.back_within", seconds=limit + grace),
                          seen=say("brief.still_waiting", seconds=answer.get("seconds")))


def came_back(say, answer: dict) -> str:
    entry = answer.get("result")
    if not answer.get("returned") or entry is None:
        return say("brief.not_back")
    return say("brief.back_after", seconds=answer.get("seconds"), said=said(entry))


def test_timeout_reported(ctx):
    """A command that keeps printing is still stopped at its time limit and comes back as a result that says "timed out after N s" with that limit."""
    say, rng = ctx.say, ctx.rng("timeout-reported")
    work = ctx.tmp("timeout-reported") / "work"
    work.mkdir()
    limit = round(rng.uniform(0.25, 0.5), 2)
    slow, quick = inputs.stream_lines(rng, "slow", 1)[0], inputs.stream_lines(rng, "quick", 1)[0]
    write_text(work / "slow.txt", slow + "\n")
    write_text(work / "quick.txt", quick + "\n")
    ticks = rng.randint(400, 600)  # it keeps printing, about every 50 ms, for 20 s and more
    calls = [["run_command", {"command": f"cat slow.txt; i=0; while [ $i -lt {ticks} ]; do echo {inputs.word(rng)} $i; "
                                         f"sleep 0.05; i=$((i+1)); done; true"}],
             ["run_command", {"command": "cat quick.txt"}, 10]]  # a loaded machine may need more than the limit
    results = tool_calls(ctx, "timeout-reported", work, calls, timeout=limit, deadline=limit + 3)
    stopped, done = results
    if "hung" in stopped:
        raise CheckFailed(say("timeout.kept_printing", limit=limit, grace=3),
                          expected=say("brief.back_within", seconds=limit + 2),
                          seen=say("brief.still_waiting", seconds=f"{limit + 3:g}"))
    if "raised" in stopped:
        raise CheckFailed(say("timeout.raised", error=stopped["raised"], where=stopped.get("where")))
    stub_in(ctx, stopped, "run_command")
    found = TIMED_OUT.search(stopped.get("content", ""))
    if not found:
        raise CheckFailed(say("timeout.not_said", limit=limit), expected=f"timed out after {limit:g} s",
                          seen=said(stopped))
    if abs(float(found.group(1)) - limit) > 0.006:
        raise CheckFailed(say("timeout.wrong_limit", limit=limit, said=found.group(1)), seen=said(stopped))
    stub_in(ctx, done, "run_command")
    if TIMED_OUT.search(done.get("content", "")) or re.search(r"timed?[ -]?out", done.get("content", ""), re.I):
        raise CheckFailed(say("timeout.quick_timed_out", limit=limit), seen=said(done))
    if quick not in done.get("content", ""):
        raise CheckFailed(say("timeout.quick_output", limit=limit), expected=quick, seen=said(done))


# --------------------------------------------------------------------------- E4: what a command gives back

def statuses(text: str) -> list[int]:
    return [int(n) for n in STATUS.findall(text)]


def test_exit_status_reported(ctx):
    """run_command's result carries the command's exit status: a drawn non-zero status, with or without output, and never a wrong one."""
    say, rng = ctx.say, ctx.rng("exit-status-reported")
    work = ctx.tmp("exit-status") / "work"
    work.mkdir()
    codes = rng.sample(range(2, 126), 2)
    lines = inputs.stream_lines(rng, "out", 2)
    write_text(work / "a.txt", lines[0] + "\n")
    write_text(work / "b.txt", lines[1] + "\n")
    missing = f"{inputs.word(rng, (6, 9))}-{inputs.word(rng, (3, 5))}"  # a command no machine has: 127
    calls = [["run_command", {"command": f"cat a.txt; exit {codes[0]}"}],
             ["run_command", {"command": f"exit {codes[1]}"}],
             ["run_command", {"command": "cat b.txt"}],
             ["run_command", {"command": f"{missing} --version"}]]
    results = tool_calls(ctx, "exit-status", work, calls)
    for (what, code), entry in zip([(say("what.after_a_line"), codes[0]), (say("what.silently"), codes[1]),
                                    (say("what.succeeds"), 0), (say("what.not_found", name=missing), 127)],
                                   results):
        stub_in(ctx, entry, "run_command")
        claimed = statuses(entry.get("content", ""))
        if code and code not in claimed:
            raise CheckFailed(say("status.missing", what=what, code=code), expected=f"exit status {code}",
                              seen=said(entry))
        if set(claimed) - {code}:
            raise CheckFailed(say("status.wrong", what=what, code=code, claimed=claimed), seen=said(entry))
        if code and entry.get("ok"):  # "exit status 1" in an ok result: the loop shows `run_command ok`
            raise CheckFailed(say("status.reads_ok", what=what, code=code), expected=say("brief.failed_call"),
                              seen=said(entry))
        if not code and not entry.get("ok"):
            raise CheckFailed(say("status.success_failed", what=what), expected=say("brief.ok_call"),
                              seen=said(entry))
    if lines[0] not in results[0].get("content", "") or lines[1] not in results[2].get("content", ""):
        raise CheckFailed(say("status.output_lost"), expected=lines[0], seen=said(results[0]))


def test_stderr_captured(ctx):
    """run_command's result holds what the command wrote to stdout and to stderr, even bytes that are not UTF-8."""
    say, rng = ctx.say, ctx.rng("stderr-captured")
    work = ctx.tmp("stderr-captured") / "work"
    work.mkdir()
    small = {"stdout": inputs.stream_lines(rng, "out", rng.randint(2, 4)),
             "stderr": inputs.stream_lines(rng, "err", rng.randint(2, 4))}
    big = {"stdout": inputs.stream_lines(rng, "OUT", rng.randint(2500, 3500)),  # each well past a 64 KB pipe
           "stderr": inputs.stream_lines(rng, "ERR", rng.randint(2500, 3500))}
    for size, streams in (("small", small), ("big", big)):
        for stream, lines in streams.items():
            write_text(work / f"{size}-{stream}.txt", "\n".join(lines) + "\n")
    marks = {stream: f"{inputs.word(rng)} {rng.choice(CJK_WORDS)} {inputs.word(rng)}" for stream in ("stdout", "stderr")}
    for stream, mark in marks.items():  # a Latin-1 byte and a stray continuation byte: not UTF-8
        (work / f"bytes-{stream}.bin").write_bytes(b"caf\xe9 \x80\xff " + mark.encode("utf-8") + b"\n")
    calls = [["run_command", {"command": "cat small-stdout.txt; cat small-stderr.txt 1>&2"}],
             ["run_command", {"command": "cat big-stdout.txt; cat big-stderr.txt 1>&2"}],
             ["run_command", {"command": "cat bytes-stdout.bin; cat bytes-stderr.bin 1>&2"}]]
    short_run, long_run, raw_run = tool_calls(ctx, "stderr-captured", work, calls)
    if "raised" in raw_run:
        raise CheckFailed(say("streams.not_utf8", error=raw_run["raised"], where=raw_run.get("where")))
    for entry in (short_run, long_run, raw_run):
        stub_in(ctx, entry, "run_command")
    for stream, mark in marks.items():
        if mark not in raw_run.get("content", ""):
            raise CheckFailed(say("streams.not_utf8_lost", stream=stream), expected=mark, seen=said(raw_run))
    content = short_run.get("content", "")
    for stream, lines in small.items():
        if "\n".join(lines) not in content:
            raise CheckFailed(say("streams.small_missing", stream=stream, count=len(lines)),
                              expected=" | ".join(lines)[:200], seen=said(short_run))
    if CUT.search(content):
        raise CheckFailed(say("streams.small_cut"), seen=said(short_run))
    content = long_run.get("content", "")
    if TIMED_OUT.search(content) or re.search(r"timed?[ -]?out", content, re.I):
        raise CheckFailed(say("streams.big_timed_out", size=sum(len("\n".join(v)) for v in big.values()) // 1000),
                          seen=said(long_run))
    for stream, lines in big.items():
        for end, line in ((say("what.first_line"), lines[0]), (say("what.last_line"), lines[-1])):
            if line not in content:
                raise CheckFailed(say("streams.end_lost", stream=stream, end=end, count=len(lines)),
                                  expected=line, seen=say("brief.chars_then", count=len(content), then=said(long_run)))
    if not CUT.search(content):
        raise CheckFailed(say("streams.cut_silent"), seen=said(long_run))


# --------------------------------------------------------------------------- E3: write_file

def test_write_outside_refused(ctx):
    """write_file refuses `../NAME`, an absolute path outside, a path through a symlinked directory that leads out, a symlink to a file outside, and paths outside into directories that do not exist yet, writing nothing outside, not even a directory."""
    say, rng = ctx.say, ctx.rng("write-outside-refused")
    root = ctx.tmp("write-outside")
    work, outside = root / "work", root / "outside"
    work.mkdir()
    keep = outside / inputs.file_name(rng)
    write_text(keep, mixed_text(rng) + "\n")
    link_dir, link_file = work / inputs.word(rng), work / inputs.file_name(rng)
    symlink(link_dir, outside, directory=True)
    symlink(link_file, keep)
    sub = inputs.word(rng)
    (work / sub).mkdir()
    nested = f"{inputs.word(rng)}/{inputs.word(rng)}/{inputs.file_name(rng)}"
    dotted = f"{sub}/../{inputs.file_name(rng)}"
    contents = [mixed_text(rng) + "\n" for _ in range(8)]
    fresh = [f"{inputs.word(rng)}-{inputs.word(rng)}/{inputs.word(rng)}/{inputs.file_name(rng)}" for _ in range(2)]
    bad = [("`../NAME`", f"../{inputs.file_name(rng)}"),
           (say("what.absolute_outside"), str(outside / inputs.file_name(rng))),
           (say("what.through_linked_dir"), f"{link_dir.name}/{inputs.file_name(rng)}"),
           (say("what.link_to_outside"), link_file.name),
           (say("what.new_dirs_dotdot"), f"../{fresh[0]}"),
           (say("what.new_dirs_absolute"), str(outside / fresh[1]))]
    rng.shuffle(bad)
    calls = [["write_file", {"path": path, "content": contents[i]}] for i, (_, path) in enumerate(bad)]
    calls += [["write_file", {"path": nested, "content": contents[6]}],
              ["write_file", {"path": dotted, "content": contents[7]}]]
    root_before, outside_before = sorted(p.name for p in root.iterdir()), tree(outside)
    results = tool_calls(ctx, "write-outside", work, calls)
    if sorted(p.name for p in root.iterdir()) != root_before or tree(outside) != outside_before:
        wrote = next((kind for (kind, _), entry in zip(bad, results) if not refused(entry)), None)
        beside = sorted(set(p.name for p in root.iterdir()) - set(root_before))
        changed = sorted(k for k, v in (tree(outside).items() ^ outside_before.items()))
        raise CheckFailed(say("outside.written", kind=wrote) if wrote else say("outside.dirs_made"),
                          expected=say("brief.nothing_outside_changed"),
                          seen=say("brief.outside_changes", beside=beside, changed=changed))
    if not link_file.is_symlink():
        raise CheckFailed(say("outside.link_replaced", name=link_file.name))
    for (kind, path), entry in zip(bad, results):
        stub_in(ctx, entry, "write_file")
        if not refused(entry):
            raise CheckFailed(say("outside.not_refused", kind=kind, path=path), seen=said(entry))
    for (kind, path, text), entry in zip([(say("what.new_directories"), nested, contents[6]),
                                          (say("what.dotdot_inside"), dotted, contents[7])], results[len(bad):]):
        stub_in(ctx, entry, "write_file")
        now = read_text((work / path).resolve())
        if refused(entry) or now != text:
            raise CheckFailed(say("outside.inside_failed", kind=kind, path=path),
                              expected=say("brief.chars_written", count=len(text)), seen=said(entry))


STEPS = {"new": "what.step_new", "overwrite": "what.step_overwrite"}  # the clean writes, as messages name them


def test_write_is_atomic(ctx):
    """A process writing a large file with write_file, SIGKILLed at 20 random moments spread over a whole write (its last step too), always leaves the old content or one new content whole, never a mix."""
    say, rng = ctx.say, ctx.rng("write-is-atomic")
    work = ctx.tmp("write-is-atomic") / "work"
    clean_dir = inputs.word(rng)
    (work / clean_dir / (blocker := inputs.word(rng))).mkdir(parents=True)

    def spec(size: int) -> dict:
        unit = inputs.big_unit(rng)
        return {"unit": unit, "count": max(1, size // len(unit.encode("utf-8")))}

    versions = [spec(rng.randint(600_000, 1_200_000)) for _ in range(3)]
    old = spec(rng.randint(300_000, 600_000))
    clean = {"dir": clean_dir, "name": inputs.file_name(rng), "blocker": blocker, "elsewhere": "",
             "first": spec(rng.randint(2_000, 20_000)), "second": spec(rng.randint(2_000, 20_000))}
    while clean["elsewhere"] in ("", clean["name"], blocker):
        clean["elsewhere"] = inputs.file_name(rng)
    quick = [spec(rng.randint(1_000, 6_000)) for _ in range(2)]  # inside one write buffer: flushed only on close
    kills_dir = inputs.word(rng)
    fresh_dir = inputs.word(rng)
    while fresh_dir in (kills_dir, clean_dir):
        fresh_dir = inputs.word(rng)
    fresh = {"path": f"{fresh_dir}/{inputs.file_name(rng)}", "content": spec(rng.randint(600_000, 1_200_000)),
             "phases": [round(rng.uniform(0.05, 1.2), 3) for _ in range(6)]}  # and one killed at its open
    job = {"workdir": str(work), "path": f"{kills_dir}/{inputs.file_name(rng)}", "old": old,
           "versions": versions, "phases": [round(rng.uniform(0.05, 1.6), 3) for _ in range(20)], "quick": quick,
           "fresh": fresh, "system_temp": str(ctx.tmp("write-is-atomic-temp") / inputs.word(rng)), "clean": clean}
    answer = ctx.harness_json("atomic_writer", job, calls="write_file", label="write-is-atomic",
                              timeout=ctx.scaled(60))
    steps = answer.get("clean") or {}
    first = steps.get("new") or {}
    stub_in(ctx, first, "write_file")
    for step, text in (("new", clean["first"]), ("overwrite", clean["second"])):
        entry = steps.get(step) or {}
        stub_in(ctx, entry, "write_file")
        if entry.get("sha") != sha(text["unit"] * text["count"]):
            raise CheckFailed(say("atomic.clean_wrong", step=say(STEPS[step])),
                              seen=say("brief.bytes", size=entry.get("size")))
        if entry.get("listing") != sorted([clean["name"], blocker]):
            raise CheckFailed(say("atomic.stray", step=say(STEPS[step])),
                              expected=sorted([clean["name"], blocker]),
                              seen=entry.get("listing"))
    failing = steps.get("failing") or {}
    if failing.get("listing") != sorted([clean["name"], blocker]):
        raise CheckFailed(say("atomic.stray_failed"), expected=sorted([clean["name"], blocker]),
                          seen=failing.get("listing"))
    rewritten = steps.get("overwrite") or {}
    if rewritten.get("inode") is not None and rewritten.get("inode") == rewritten.get("inode_before"):
        raise CheckFailed(say("atomic.same_inode"), expected=say("brief.new_inode"),
                          seen=say("brief.same_inode", inode=rewritten.get("inode")))
    elsewhere = steps.get("elsewhere") or {}
    if "raised" in elsewhere or elsewhere.get("sha") != sha(clean["first"]["unit"] * clean["first"]["count"]):
        raise CheckFailed(say("atomic.temp_elsewhere"), expected=say("brief.temp_beside"),
                          seen=elsewhere.get("raised") or say("brief.bytes", size=elsewhere.get("size")))
    known = {sha(s["unit"] * s["count"]): name for name, s in
             [(say("what.version_old"), old)] + [(say("what.version_new", number=i + 1), v)
                                                  for i, v in enumerate(versions)]}
    sizes = {name: len((s["unit"] * s["count"]).encode("utf-8")) for name, s in
             [(say("what.version_old"), old)] + [(say("what.version_new", number=i + 1), v)
                                                  for i, v in enumerate(versions)]}
    rounds, delays = answer.get("rounds") or [], answer.get("delays") or []
    if len(rounds) != len(job["phases"]) or len(delays) != len(rounds):
        raise CheckFailed(say("atomic.rounds", done=len(rounds), total=len(job["phases"])))
    for number, entry in enumerate(rounds, 1):
        if not entry.get("killed"):
            raise CheckFailed(say("atomic.writer_stopped", number=number))
        if entry.get("missing"):
            raise CheckFailed(say("atomic.missing", number=number, delay=round(delays[number - 1] * 1000)))
        if entry.get("sha") not in known:
            raise CheckFailed(say("atomic.mixed", number=number, delay=round(delays[number - 1] * 1000)),
                              expected=say("brief.whole_versions", versions=", ".join(
                                  say("brief.version_bytes", version=k, size=v) for k, v in sizes.items())),
                              seen=say("brief.bytes_unknown", size=entry.get("size")))
    quick_seen = answer.get("quick") or []
    if len(quick_seen) != len(quick):
        raise CheckFailed(say("atomic.rounds", done=len(quick_seen), total=len(quick)))
    for version, entry in zip(quick, quick_seen):
        whole = version["unit"] * version["count"]
        if entry.get("renamed") and entry.get("sha") != sha(whole):
            raise CheckFailed(say("atomic.renamed_early"), expected=say("brief.bytes_whole", size=len(whole.encode("utf-8"))),
                              seen=say("brief.bytes", size=entry.get("size")))
        if entry.get("renamed") and not entry.get("fsynced"):
            raise CheckFailed(say("atomic.no_fsync"), expected=say("brief.fsync_then_rename"),
                              seen=say("brief.renamed_unsynced"))
    fresh_seen, whole = answer.get("fresh") or [], fresh["content"]["unit"] * fresh["content"]["count"]
    if len(fresh_seen) != len(fresh["phases"]) + 1:
        raise CheckFailed(say("atomic.rounds", done=len(fresh_seen), total=len(fresh["phases"]) + 1))
    for number, entry in enumerate(fresh_seen, 1):
        if entry.get("missing") or entry.get("sha") == sha(whole):
            continue  # a first write killed before its rename leaves no file: the name was never there
        raise CheckFailed(say("atomic.fresh_opened", number=number) if entry.get("opened_in_place")
                          else say("atomic.fresh_mixed", number=number), expected=say("brief.fresh_whole_or_none",
                                                                size=len(whole.encode("utf-8"))),
                          seen=say("brief.bytes", size=entry.get("size")))


# --------------------------------------------------------------------------- bonus

def test_crlf_edit(ctx):
    """An edit given with \\n line ends on a file with \\r\\n line ends keeps every line end \\r\\n."""
    say, rng = ctx.say, ctx.rng("crlf-edit")
    work = ctx.tmp("crlf-edit") / "work"
    lines = inputs.distinct_lines(rng, rng.randint(8, 12))
    start = rng.randrange(len(lines) - 1)
    old = lines[start] + "\n" + lines[start + 1]
    new = "\n".join(f"    {inputs.word(rng)} = \"{rng.choice(CJK_WORDS)}\"" for _ in range(rng.randint(2, 3)))
    files = {"crlf": inputs.file_name(rng, ".py"), "lf": inputs.file_name(rng, ".py")}
    while files["lf"] == files["crlf"]:
        files["lf"] = inputs.file_name(rng, ".py")
    expected = {}
    for ending, name in files.items():
        eol = "\r\n" if ending == "crlf" else "\n"
        text = eol.join(lines) + eol
        write_text(work / name, text)
        expected[ending] = text.replace(old.replace("\n", eol), new.replace("\n", eol))
    calls = [["edit_file", {"path": files[e], "old": old, "new": new}] for e in ("crlf", "lf")]
    results = tool_calls(ctx, "crlf-edit", work, calls)
    for ending, entry in zip(("crlf", "lf"), results):
        stub_in(ctx, entry, "edit_file")
        if refused(entry):
            raise CheckFailed(say("crlf.refused", ending=ending), seen=said(entry))
        with open(work / files[ending], "rb") as handle:
            now = handle.read().decode("utf-8", errors="replace")
        if now != expected[ending]:
            bare = len(re.findall(r"(?<!\r)\n", now))
            raise CheckFailed(say("crlf.endings", ending=ending),
                              expected=say("brief.line_ends", count=expected[ending].count(chr(10)),
                                           kind="CRLF" if ending == "crlf" else "LF"),
                              seen=say("brief.crlf_and_lf", crlf=now.count(chr(13) + chr(10)), lf=bare))


def test_mode_kept(ctx):
    """write_file and edit_file keep an existing file's permission bits."""
    say, rng = ctx.say, ctx.rng("mode-kept")
    work = ctx.tmp("mode-kept") / "work"
    umask = rng.choice([0o022, 0o027, 0o002, 0o007])
    modes = rng.sample([0o755, 0o750, 0o640, 0o644, 0o664, 0o700, 0o604], 2)
    names = [inputs.file_name(rng, ".sh") for _ in range(3)]
    while len(set(names)) < 3:
        names = [inputs.file_name(rng, ".sh") for _ in range(3)]
    line = f"echo {inputs.word(rng)}"
    for name, mode in zip(names, modes):
        write_text(work / name, f"#!/bin/sh\n{line}\n")
        (work / name).chmod(mode)
    calls = [["write_file", {"path": names[0], "content": f"#!/bin/sh\n{mixed_text(rng)}\n"}],
             ["edit_file", {"path": names[1], "old": line, "new": f"echo {rng.choice(CJK_WORDS)}"}],
             ["write_file", {"path": names[2], "content": mixed_text(rng) + "\n"}]]
    results = tool_calls(ctx, "mode-kept", work, calls, umask=umask)
    expect = [("write_file", say("what.write_existing"), modes[0]), ("edit_file", "edit_file", modes[1]),
              ("write_file", say("what.write_new"), 0o666 & ~umask)]
    for (tool, what, mode), name, entry in zip(expect, names, results):
        stub_in(ctx, entry, tool)
        if refused(entry):
            raise CheckFailed(say("mode.refused", what=what), seen=said(entry))
        now = stat.S_IMODE((work / name).stat().st_mode)
        if now != mode:
            raise CheckFailed(say("mode.changed", what=what, umask=f"{umask:03o}"), expected=f"{mode:04o}",
                              seen=f"{now:04o}")
