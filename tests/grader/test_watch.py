"""`grader watch`: which checks a save re-runs, the loop that folds partial runs into the
view, progress, and one end-to-end run with the real file watcher and real children.

The mapping is held for every day of course.toml. The loop is driven by a scripted
source (no inotify, no waiting) and, where children do not matter, a stand-in for the
engine; the synthetic course of conftest.py gives the real engine cheap children.
"""

from __future__ import annotations

import io
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli import app
from grader.course import load_course
from grader.engine import run_day
from grader.lab.state import State
from grader.report.results import CheckResult, DayResult
from grader.scaffold.trees import tree_files
from grader.watch.loop import Watch, WatchFailed
from grader.watch.plan import Snapshot, is_ignored, plan_for
from grader.watch.sources import Changed, Failed, Key, ScriptedSource
from grader.watch.view import Screen

ROOT = Path(__file__).resolve().parents[2]
COURSE = load_course(ROOT / "course.toml")
RAW = tomllib.loads((ROOT / "course.toml").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the map, every day

def _expected(day_id: str, file: str) -> tuple[str, ...]:
    """Straight from course.toml's text: the checks proving or resting on a point in `file`."""
    raw = next(d for d in RAW["days"] if d["id"] == day_id)
    points = {e["id"] for e in raw["exercises"] if e["file"] == file}
    checks = [c for c in raw["checks"] if points & set(c.get("exercises", []) + c.get("depends", []))]
    core = [c["id"] for c in checks if not c.get("bonus")]
    return tuple(core + [c["id"] for c in checks if c.get("bonus")])


@pytest.mark.parametrize("day", COURSE.days, ids=lambda d: d.id)
def test_each_exercise_file_re_runs_exactly_its_checks(day):
    files = sorted({e.file for e in day.exercises})
    assert files
    for file in files:
        plan = plan_for(day, [file], COURSE.runtime_dirs)
        assert plan is not None and not plan.is_full, file
        assert plan.checks == _expected(day.id, file), file
        assert plan.checks, f"{day.id}: no check rests on {file}"
        assert set(plan.points) == {e.id for e in day.exercises if e.file == file}
    if len(files) > 1:   # two files saved together: the union, in report order
        both = plan_for(day, files[:2], COURSE.runtime_dirs)
        union = set(_expected(day.id, files[0])) | set(_expected(day.id, files[1]))
        assert set(both.checks) == union and len(both.checks) == len(union)


@pytest.mark.parametrize("day", COURSE.days, ids=lambda d: d.id)
def test_a_provided_file_re_runs_every_check(day):
    exercise_files = {e.file for e in day.exercises}
    provided = [rel for rel in tree_files(day.lab, COURSE.runtime_dirs) if rel not in exercise_files]
    assert provided, f"{day.id}: its lab has no provided file"
    for rel in provided:
        plan = plan_for(day, [rel], COURSE.runtime_dirs)
        assert plan is not None and plan.is_full and plan.provided == (rel,), rel
    mixed = plan_for(day, [day.exercises[0].file, provided[0]], COURSE.runtime_dirs)
    assert mixed.is_full and mixed.everything == "provided"


@pytest.mark.parametrize("day", COURSE.days, ids=lambda d: d.id)
def test_what_the_grader_ignores_triggers_nothing(day):
    package = COURSE.agent.package
    file = day.exercises[0].file
    stem = Path(file).name
    ignored = [f"{package}/__pycache__/{Path(file).stem}.cpython-311.pyc", f"{file}c",
               *(f"{runtime}/s-1.jsonl" for runtime in COURSE.runtime_dirs), ".grader/state.json",
               ".git/index", ".venv/bin/python", ".pytest_cache/v/x",
               str(Path(file).with_name(f".{stem}.swp")), f"{file}~", "4913", str(Path(file).parent / "4913"),
               str(Path(file).with_name(f".#{stem}")), str(Path(file).with_name(f"#{stem}#")),
               f"{file}___jb_tmp___"]
    for rel in ignored:
        assert is_ignored(rel, COURSE.runtime_dirs), rel
        assert plan_for(day, [rel], COURSE.runtime_dirs) is None, rel
    with_one = plan_for(day, [*ignored, file], COURSE.runtime_dirs)
    assert with_one.checks == _expected(day.id, file) and with_one.files == (file,)


def test_a_snapshot_tells_real_changes_from_rewrites(tmp_path):
    lab = tmp_path / "lab"
    (lab / "pkg").mkdir(parents=True)
    (lab / "pkg" / "a.py").write_text("a = 1\n")
    (lab / "pkg" / "b.py").write_text("b = 1\n")
    snap = Snapshot(lab)
    (lab / "pkg" / "a.py").write_text("a = 1\n")       # saved, same bytes
    assert snap.differing(["pkg/a.py"]) == set()
    (lab / "pkg" / "b.py").write_text("b = 2\n")
    (lab / "pkg" / "new.py").write_text("")
    (lab / "gone.tmp").write_text("x")
    (lab / "gone.tmp").unlink()                        # came and went within the burst
    assert snap.differing(["pkg/a.py", "pkg/b.py", "pkg/new.py", "gone.tmp"]) == {"pkg/b.py", "pkg/new.py"}
    (lab / "pkg" / "a.py").unlink()
    assert snap.differing(["pkg/a.py"]) == {"pkg/a.py"}
    shutil.move(lab / "pkg", lab / "moved")            # a directory renamed: both names count
    assert snap.differing(["pkg", "moved"]) == {"pkg", "moved"}


# --------------------------------------------------------------------------- the loop, scripted

DAY01 = COURSE.find_day("day-01")


def fake_engine(failing: set[str]):
    """A stand-in for run_day: every check of the selection passes unless in `failing`."""
    calls = []

    def grade(course, day, lab, *, select=None, seed=None, hint_levels=None, on_check=None):
        calls.append(None if select is None else set(select))
        results = []
        for check in day.all_checks:
            if select is not None and check.id not in select:
                continue
            bad = check.id in failing
            results.append(CheckResult(id=check.id, title=check.title, status="failed" if bad else "passed",
                                       message="wrong" if bad else "", hint=check.hints[0] if bad else None,
                                       hint_level=1 if bad else 0, hint_levels=len(check.hints),
                                       bonus=check.bonus, exercises=check.exercises))
            on_check(check.id, results[-1].status)
        return DayResult(day.id, day.title, str(lab), checks=[r for r in results if not r.bonus],
                         bonus=[r for r in results if r.bonus], seed=seed, duration=0.01)

    grade.calls = calls
    return grade


def edit(lab: Path, rel: str, text: str = "\n# edited\n"):
    """A callable event: append to the lab's file `rel`, then report it changed."""
    def do():
        with (lab / rel).open("a", encoding="utf-8") as handle:
            handle.write(text)
        return Changed(frozenset({rel}))
    return do


@pytest.fixture
def lab01(tmp_path):
    lab = tmp_path / "lab"
    shutil.copytree(DAY01.lab, lab)
    return lab


def watch_of(lab, events, grade, *, course=COURSE, day=DAY01, own_lab=False):
    out = io.StringIO()
    watch = Watch(course, day, lab, source=ScriptedSource(events), grade=grade, seed=7, own_lab=own_lab,
                  shown_lab="lab", screen=Screen(out, tty=False, unicode=True, colour=False))
    return watch, out


ROW = re.compile(r"^(?P<fresh>[▸ ]) (?P<mark>\S) +(?:\d+|\*) (?P<id>[a-z0-9-]+)  ")


def blocks(text: str) -> list[dict]:
    """Each run's block of plain output: its run line, and per check (fresh?, mark)."""
    found = []
    for line in text.splitlines():
        if line.startswith("── run "):
            found.append({"run": line, "rows": {}, "lines": []})
        elif found:
            found[-1]["lines"].append(line)
            match = ROW.match(line)
            if match:
                found[-1]["rows"][match["id"]] = (match["fresh"] == "▸", match["mark"])
    return found


def fresh_ids(block: dict) -> set[str]:
    return {check for check, (fresh, _) in block["rows"].items() if fresh}


def test_first_run_grades_all_then_a_save_re_runs_only_its_checks(lab01):
    grade = fake_engine({"history-carried", "repl-edges"})
    watch, out = watch_of(lab01, [edit(lab01, "mca/repl.py"), None], grade)
    assert watch.run() == 0
    assert grade.calls == [None, {"repl-edges"}]
    first, second = blocks(out.getvalue())
    assert "every check (the first run)" in first["run"] and not fresh_ids(first)
    assert len(first["rows"]) == len(DAY01.all_checks)
    assert "mca/repl.py changed (E5): 1 of 12 checks re-run" in second["run"]
    assert fresh_ids(second) == {"repl-edges"}
    assert second["rows"] == {**first["rows"], "repl-edges": (True, "✗")}   # the rest kept as they were
    text = "\n".join(second["lines"])
    assert "8/10 passed   bonus 2/2" in text
    assert "next: history-carried" in text and "hint: " + DAY01.check("history-carried").hints[0] in text
    assert "▸ re-run now; the other lines are kept from earlier runs" in text


def test_a_burst_of_saves_is_one_run_and_keys_rerun_or_quit(lab01):
    grade = fake_engine(set())
    events = [edit(lab01, "mca/chat.py"), edit(lab01, "mca/chat.py"), edit(lab01, "mca/repl.py"), None,
              Key("x"), Key("a"), Key("\n"), Key("q"), edit(lab01, "mca/repl.py")]
    watch, out = watch_of(lab01, events, grade)
    assert watch.run() == 0
    chat = set(plan_for(DAY01, ["mca/chat.py"]).checks)
    assert grade.calls == [None, chat | {"repl-edges"}, None, None]   # q came before the last save
    assert [b["run"].split(" · ")[1] for b in blocks(out.getvalue())][2:] == ["every check (asked for)"] * 2


def test_ignored_files_and_unchanged_saves_run_nothing(lab01):
    grade = fake_engine(set())
    (lab01 / ".sessions").mkdir()

    def rewrite():
        (lab01 / "mca/chat.py").write_bytes((lab01 / "mca/chat.py").read_bytes())
        return Changed(frozenset({"mca/chat.py"}))

    events = [Changed(frozenset({".sessions/s.jsonl", "mca/__pycache__/chat.cpython-311.pyc", "mca/.chat.py.swp"})),
              None, rewrite, None]
    watch, out = watch_of(lab01, events, grade)
    assert watch.run() == 0
    assert grade.calls == [None]
    assert "mca/chat.py: saved with the same content the last run graded: nothing to re-run" in out.getvalue()


def test_a_provided_file_re_runs_every_check_and_says_why(lab01):
    grade = fake_engine(set())
    watch, out = watch_of(lab01, [edit(lab01, "mca/cli.py"), None], grade)
    watch.run()
    assert grade.calls == [None, None]
    assert "mca/cli.py changed, which is no exercise point's file: every check re-runs" in out.getvalue()


def test_a_lab_that_stops_being_one_waits_then_grades_everything(lab01):
    grade = fake_engine(set())

    def remove():
        (lab01 / "mca/repl.py").rename(lab01 / "repl.py.moved")
        return Changed(frozenset({"mca/repl.py"}))

    def put_back():
        (lab01 / "repl.py.moved").rename(lab01 / "mca/repl.py")
        (lab01 / "mca/repl.py").write_text((lab01 / "mca/repl.py").read_text() + "# back\n")
        return Changed(frozenset({"mca/repl.py", "repl.py.moved"}))

    watch, out = watch_of(lab01, [remove, None, put_back, None], grade)
    watch.run()
    assert grade.calls == [None, None]   # after a run that could not happen, every check
    assert "not a day-01 lab any more: " in out.getvalue() and "has no mca/repl.py" in out.getvalue()
    assert "every check (the last run left no result to build on)" in out.getvalue()


def test_a_blocked_partial_run_marks_every_line_skipped_and_the_next_save_grades_all(lab01):
    calls = []

    def grade(course, day, lab, *, select=None, seed=None, hint_levels=None, on_check=None):
        calls.append(select)
        blocked = "the lab could not start: SyntaxError" if len(calls) == 2 else None
        status = "skipped" if blocked else "passed"
        results = [CheckResult(id=c.id, title=c.title, status=status, message="not run" if blocked else "",
                               bonus=c.bonus) for c in day.all_checks if select is None or c.id in select]
        return DayResult(day.id, day.title, str(lab), checks=[r for r in results if not r.bonus],
                         bonus=[r for r in results if r.bonus], blocked=blocked)

    watch, out = watch_of(lab01, [edit(lab01, "mca/repl.py"), None, edit(lab01, "mca/repl.py"), None], grade)
    watch.run()
    first, second, third = blocks(out.getvalue())
    assert {mark for _, mark in second["rows"].values()} == {"-"}
    assert "the lab could not start: SyntaxError" in "\n".join(second["lines"])
    # nothing was re-run and nothing kept: no line marked as re-run, no "kept from earlier runs"
    assert not fresh_ids(second) and "kept from earlier runs" not in "\n".join(second["lines"])
    assert calls == [None, {"repl-edges"}, None]
    assert {mark for _, mark in third["rows"].values()} == {"✓"}


def test_a_watcher_that_fails_stops_the_watch(lab01):
    watch, _ = watch_of(lab01, [Failed("OSError: no space left for watches")], fake_engine(set()))
    with pytest.raises(WatchFailed, match="no space left"):
        watch.run()


# --------------------------------------------------------------------------- progress, real engine

def test_progress_on_the_own_lab_full_then_partial(course_dir, course):
    """The synthetic course's own lab (checks runs, greets E1, counts E2, bonus polite E1):
    a full run records as `grader check` does; a partial one records each check's latest
    result without the fingerprint; only the hint on screen counts as shown."""
    day = course.find_day("day-01")
    lab = day.lab

    def fix_count():
        (lab / "toy/count.py").write_text("def count(items):\n    return len(items)\n")
        return Changed(frozenset({"toy/count.py"}))

    watch, out = watch_of(lab, [fix_count, None], run_day, course=course, day=day, own_lab=True)
    full_state = {}
    record = watch.record

    def spy(state, full, fingerprint):
        record(state, full, fingerprint)
        full_state.setdefault("first", json.loads(json.dumps(state.data)))

    watch.record = spy
    assert watch.run() == 0
    first = full_state["first"]["days"]["day-01"]
    assert (first["last"]["passed"], first["last"]["total"]) == (1, 2 + 1) and first["last"]["lab_sha256"]
    first_block, second_block = blocks(out.getvalue())
    assert fresh_ids(second_block) == {"counts"}
    assert second_block["rows"]["counts"] == (True, "✓")
    state = State.load(course_dir)
    last = state.last("day-01")
    assert (last["passed"], last["total"]) == (2, 3) and "lab_sha256" not in last
    assert set(last["failed"]) == {"greets", "polite"}
    assert state.data["days"]["day-01"]["hints"] == {"greets": 1}   # the one hint the view showed


def test_another_directory_keeps_progress_alone(course_dir, course):
    day = course.find_day("day-01")
    watch, _ = watch_of(day.solution, [], run_day, course=course, day=day, own_lab=False)
    assert watch.run() == 0
    assert not (course_dir / ".grader" / "state.json").exists()


# --------------------------------------------------------------------------- the command

@pytest.mark.parametrize("args, fragment", [
    (["watch", "day-99"], "unknown day"),
    (["watch", "1", "--lab", "nowhere"], "does not exist"),
])
def test_watch_usage_errors_exit_2_in_one_line(course_dir, args, fragment):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and fragment in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_watch_refuses_a_directory_that_is_not_a_lab(course_dir, tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(app, ["watch", "1", "--lab", str(tmp_path / "empty")])
    assert result.exit_code == 2 and "not a day-01 lab" in result.stderr and "Fix:" in result.stderr


# --------------------------------------------------------------------------- end to end

def _reader(stream, lines: queue.Queue):
    for line in iter(stream.readline, ""):
        lines.put(line.rstrip("\n"))
    lines.put(None)


def _wait_for(lines: queue.Queue, seen: list[str], pattern: str, timeout: float = 180) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        if line is None:
            raise AssertionError(f"grader watch ended before {pattern!r}:\n" + "\n".join(seen))
        seen.append(line)
        if re.search(pattern, line):
            return line
    raise AssertionError(f"no {pattern!r} within {timeout} s:\n" + "\n".join(seen))


def _processes_in(directory: Path) -> list[str]:
    """Live processes whose command line or working directory lies in `directory`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (str(directory) in cmdline or cwd.startswith(str(directory))):
            found.append(f"{pid}: {cmdline}")
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="looks for leftover children in /proc")
def test_watch_end_to_end_with_real_saves(tmp_path):
    lab = tmp_path / "lab"
    shutil.copytree(DAY01.lab, lab)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "TMPDIR": str(scratch), "GRADER_LANG": "en"}
    env.pop("COLUMNS", None)
    # SIGINT as a terminal leaves it: a test run started in the background inherits it ignored
    proc = subprocess.Popen([sys.executable, "-m", "grader", "watch", "day-01", "--lab", str(lab)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        _wait_for(lines, seen, r"^run 1 took ")
        _wait_for(lines, seen, r"^watching for saves")
        with (lab / "mca/repl.py").open("a", encoding="utf-8") as handle:
            handle.write("\n# trying something\n")
        start = len(seen)
        _wait_for(lines, seen, r"^run 2 took ")
        (second,) = blocks("\n".join(seen[start:]))
        assert "mca/repl.py changed (E5): 1 of 12 checks re-run" in second["run"]
        assert fresh_ids(second) == {"repl-edges"}, "\n".join(seen)
        assert len(second["rows"]) == len(DAY01.all_checks)

        before = {rel: (lab / rel).read_bytes() for rel in tree_files(lab)}
        with (lab / "mca/chat.py").open("a", encoding="utf-8") as handle:
            handle.write("\n# and something else\n")
        before["mca/chat.py"] = (lab / "mca/chat.py").read_bytes()
        _wait_for(lines, seen, r"^── run 3 .*running")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        stderr = proc.stderr.read()
        assert "stopped" in stderr and "your lab was not changed" in stderr and "Traceback" not in stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not _processes_in(tmp_path)
    assert not list(scratch.iterdir()), "a run's scratch directory was left behind"
    assert {rel: (lab / rel).read_bytes() for rel in tree_files(lab)} == before


# --------------------------------------------------------------------------- on a terminal

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_terminal_the_view_is_redrawn_in_place_and_fits(lab01, lang):
    from grader import i18n
    from grader.i18n import display_width

    i18n.set_language(lang)
    try:
        grade = fake_engine({"history-carried", "request-shape"})
        out = io.StringIO()
        watch = Watch(COURSE, i18n.localise(COURSE).find_day("day-01"), lab01, grade=grade, seed=7,
                      own_lab=False, shown_lab="lab", keys=True,
                      source=ScriptedSource([edit(lab01, "mca/chat.py"), None]),
                      screen=Screen(out, tty=True, unicode=True, colour=True, size=lambda: (60, 18)))
        assert watch.run() == 0
        watch.screen.close()
    finally:
        i18n.set_language(None)
    text = out.getvalue()
    draws = text.split("\033[H")[1:]
    assert text.startswith("\033[?25l\033[H\033[2J") and text.endswith("\033[?25h")  # cleared once, cursor back
    assert "\033[2J" not in text[len("\033[?25l\033[H\033[2J"):]                     # then only redrawn
    assert len(draws) >= 2 * (1 + 1) + len(DAY01.all_checks)   # start and end of both runs, one per check
    for draw in draws:
        rows = [re.sub(r"\033\[[0-9;?]*[A-Za-z]", "", row) for row in draw.split("\n")]
        assert len(rows) <= 18, "the view scrolled the terminal"
        assert all(display_width(row) < 60 for row in rows), [r for r in rows if display_width(r) >= 60]
    final = re.sub(r"\033\[[0-9;?]*[A-Za-z]", "", draws[-1])
    assert ("a or Enter" if lang == "en" else "a 或回车") in final
    assert final.count("▸") >= 2    # the re-run lines, and the legend's mark
