"""The mechanics of a batch, on the tiny synthetic course (tests/grader/conftest.py): which
directories are submissions, shards that merge into the unsharded run, bad arguments,
Ctrl-C, and the words in both languages. A grading of the toy course takes about a second."""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader.checkkit.context import neutral
from grader.classroom import batch as batching
from grader.classroom import commands
from grader.classroom.submissions import (SubmissionError, find_submissions, parse_shard, seed_for, shard,
                                          Submission)
from grader.course import load_course
from tests.classroom.conftest import csv_rows, invoke, jsonl_rows, leftovers, statuses

TIMING = ("wall_seconds", "started")

PROBE_DIR = neutral("import-probe")  # the import probe's working directory (grader/engine/)


@pytest.fixture
def room(course_dir, tmp_path) -> Path:
    """A class of the toy day 01: the solution, the lab, an empty dir and one without the package."""
    room = tmp_path / "class"
    room.mkdir()
    shutil.copytree(course_dir / "solutions/day-01-hello", room / "ann")
    shutil.copytree(course_dir / "labs/day-01-hello", room / "bo")
    (room / "dee").mkdir()
    (room / "eve").mkdir()
    (room / "eve" / "agent.py").write_text("print('my agent')\n")
    return room


# --------------------------------------------------------------------------- which directories

def test_a_directory_with_the_package_is_a_submission_and_any_other_holds_them(tmp_path):
    (tmp_path / "one" / "toy").mkdir(parents=True)
    (tmp_path / "class" / "a" / "toy").mkdir(parents=True)
    (tmp_path / "class" / "b").mkdir()                     # a row of its own: not a lab
    (tmp_path / "class" / ".git").mkdir()                  # hidden: skipped
    (tmp_path / "class" / "gradebook-day-01").mkdir()      # a gradebook: skipped
    (tmp_path / "class" / "gradebook-day-01" / "batch.json").write_text("{}")
    (tmp_path / "class" / "notes.txt").write_text("files are not submissions")
    (tmp_path / "lonely").mkdir()                          # empty, given directly: one row
    found = find_submissions([tmp_path / "class", tmp_path / "one", tmp_path / "lonely"], "toy")
    assert [(s.name, s.path) for s in found] == [
        ("a", tmp_path / "class" / "a"), ("b", tmp_path / "class" / "b"), ("lonely", tmp_path / "lonely"),
        ("one", tmp_path / "one")]


def test_a_clone_of_the_kit_is_graded_at_its_days_lab(tmp_path):
    lab = Path("labs", "day-01-hello")
    (tmp_path / "class" / "ann" / lab / "toy").mkdir(parents=True)
    (tmp_path / "solo" / lab / "toy").mkdir(parents=True)
    found = find_submissions([tmp_path / "class", tmp_path / "solo"], "toy", lab)
    assert [(s.name, s.path) for s in found] == [("ann", tmp_path / "class" / "ann" / lab),
                                                 ("solo", tmp_path / "solo" / lab)]


def test_a_directory_given_without_the_package_but_with_folders_is_a_class(tmp_path):
    (tmp_path / "eve" / "docs").mkdir(parents=True)
    assert [s.name for s in find_submissions([tmp_path / "eve"], "toy")] == ["docs"]


def test_two_submissions_of_one_name_are_refused(tmp_path):
    for parent in ("x", "y"):
        (tmp_path / parent / "sam" / "toy").mkdir(parents=True)
    with pytest.raises(SubmissionError, match="two submissions are named 'sam'"):
        find_submissions([tmp_path / "x", tmp_path / "y"], "toy")


def test_shards_are_round_robin_slices_by_name_that_cover_the_class_once():
    names = [f"s{n:02}" for n in range(11)]
    class_ = [Submission(n, Path("/c") / n) for n in reversed(names)]
    slices = [[s.name for s in shard(class_, (k, 3))] for k in (1, 2, 3)]
    assert slices[0] == ["s00", "s03", "s06", "s09"] and slices[2] == ["s02", "s05", "s08"]
    assert sorted(n for part in slices for n in part) == names
    assert [s.name for s in shard(class_, None)] == names


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2", ""])
def test_a_bad_shard_is_refused(text):
    with pytest.raises(SubmissionError, match="--shard takes K/N"):
        parse_shard(text)


def test_seeds_depend_on_the_batch_seed_and_the_name_only():
    assert seed_for(5, "ann") == seed_for(5, "ann") != seed_for(5, "bo")
    assert seed_for(5, "ann") != seed_for(6, "ann")
    assert 0 <= seed_for(5, "ann") < 2**32


# --------------------------------------------------------------------------- shards

def _without_timing(out: Path) -> tuple[list[list[str]], list[dict]]:
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    column = table[0].index("wall_seconds")
    table = [row[:column] + row[column + 1:] for row in table]
    rows = []
    for row in jsonl_rows(out).values():
        row = {k: v for k, v in row.items() if k not in TIMING}
        if row["result"]:
            result = dict(row["result"], duration=0)
            # a check's repro lines name its scratch directory, a new one in every run
            result["checks"] = [dict(c, duration=0, repro=[]) for c in result["checks"]]
            result["bonus"] = [dict(c, duration=0, repro=[]) for c in result["bonus"]]
            row["result"] = result
        rows.append(row)
    return table, rows


def test_two_shards_merged_are_the_unsharded_run(room, tmp_path, course_dir):
    said = {}
    for out, more in (("whole", []), ("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"])):
        done = invoke("grade", "day-01", room, "-o", tmp_path / out, "--seed", 41, *more)
        assert done.exit_code == 0, done.stdout + done.stderr
        said[out] = done.stdout
    assert set(jsonl_rows(tmp_path / "s1")) == {"ann", "dee"} and set(jsonl_rows(tmp_path / "s2")) == {"bo", "eve"}
    assert "shard 1/2: 2 of the 4 submissions" in said["s1"] and "shard 2/2: 2 of the 4" in said["s2"]
    merged = invoke("gradebook", "merge", tmp_path / "merged", tmp_path / "s1", tmp_path / "s2")
    assert merged.exit_code == 0, merged.stderr
    assert _without_timing(tmp_path / "merged") == _without_timing(tmp_path / "whole")
    rows = jsonl_rows(tmp_path / "whole")
    assert statuses(rows["ann"]) == {"runs": "passed", "greets": "passed", "counts": "passed", "polite": "passed"}
    assert statuses(rows["bo"])["greets"] == "failed" and rows["bo"]["result"]["passed"] == 1
    assert (rows["dee"]["outcome"], rows["eve"]["outcome"]) == ("not-a-lab", "not-a-lab")
    assert "has no toy/ package" in rows["eve"]["note"]


def test_only_passes_through_to_every_grading(room, tmp_path, course_dir):
    done = invoke("grade", "day-01", room / "bo", room / "ann", "-o", tmp_path / "out", "--only", "greets")
    assert done.exit_code == 0, done.stderr
    table = csv_rows(tmp_path / "out")
    assert (table["bo"]["greets"], table["bo"]["core_total"]) == ("failed", "1")
    assert table["ann"]["greets"] == "passed" and "runs" not in table["ann"]  # a column per check run
    assert jsonl_rows(tmp_path / "out")["bo"]["result"]["total"] == 1


# --------------------------------------------------------------------------- arguments

def _refused(done, says: str) -> None:
    assert done.exit_code == 2, done.stdout + done.stderr
    assert says in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_bad_arguments_exit_2_in_one_line_before_any_grading(room, tmp_path, course_dir):
    (tmp_path / "file.zip").write_text("PK")
    _refused(invoke("grade", "day-09", room), "unknown day")
    _refused(invoke("grade", "day-01", tmp_path / "nowhere"), "no such directory")
    _refused(invoke("grade", "day-01", tmp_path / "file.zip"), "unpack archives first")
    _refused(invoke("grade", "day-01", room, "--jobs", 0), "--jobs takes 1 or more")
    for timeout in (0, -5, "nan", "inf"):
        _refused(invoke("grade", "day-01", room, "--timeout", timeout), "--timeout takes a number of seconds")
    _refused(invoke("grade", "day-01", room, "--shard", "3/2"), "--shard takes K/N")
    _refused(invoke("grade", "day-01", room, "--only", "nope"), "has no check 'nope'")
    _refused(invoke("grade", "day-01", room, "-o", tmp_path / "file.zip"), "is a file")
    _refused(invoke("grade", "day-01", room, "-o", room), "holds no gradebook")
    _refused(invoke("grade", "day-01", room / "dee", room / "bo", "-o", room / "dee"), "is one of the submissions")
    assert not (tmp_path / "gradebook-day-01").exists()


def test_a_gradebook_is_replaced_only_with_force(room, tmp_path, course_dir):
    out = tmp_path / "out"
    assert invoke("grade", "day-01", room / "dee", "-o", out).exit_code == 0
    _refused(invoke("grade", "day-01", room / "eve", "-o", out), "--force")
    assert list(jsonl_rows(out)) == ["dee"]
    assert invoke("grade", "day-01", room / "eve", "-o", out, "--force").exit_code == 0
    assert list(jsonl_rows(out)) == ["eve"]


def test_the_default_output_is_gradebook_day_in_the_current_directory(room, course_dir):
    done = invoke("grade", "1", room / "dee")
    assert done.exit_code == 0, done.stderr
    assert Path("gradebook-day-01", "gradebook.csv").is_file()  # course_dir's cwd is a scratch directory


def test_the_batch_speaks_chinese(room, tmp_path, course_dir):
    done = invoke("--lang", "zh", "grade", "day-01", room / "dee", room / "eve", "-o", tmp_path / "out")
    assert done.exit_code == 0, done.stderr
    assert "共 2 份作业" in done.stdout and "不是实验目录：目录是空的" in done.stdout
    assert jsonl_rows(tmp_path / "out")["dee"]["note"] == "不是实验目录：目录是空的"
    assert "班级报告" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    _refused(invoke("--lang", "zh", "grade", "day-01", room, "--jobs", 0), "--jobs 至少为 1")


# --------------------------------------------------------------------------- Ctrl-C

def test_ctrl_c_stops_every_grading_process(course_dir, tmp_path):
    course = load_course(course_dir / "course.toml")
    day = course.find_day("day-01")
    hangs = tmp_path / "class" / "a-hangs"
    shutil.copytree(course_dir / "solutions/day-01-hello", hangs)
    with open(hangs / "toy" / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write("\nimport time\nwhile True:\n    time.sleep(1)\n")
    (tmp_path / "class" / "b-empty").mkdir()
    settings = batching.Settings(course=course, day=day, batch_seed=1, jobs=2, timeout=120,
                                 env={"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path)})

    def press_ctrl_c():  # once the hanging lab's import probe is running
        for _ in range(600):
            if any(PROBE_DIR in line for line in leftovers(str(tmp_path))):  # the probe's cwd
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                return
            time.sleep(0.1)  # never found: no Ctrl-C (one after the batch would stop the suite), the test fails

    seen = []
    # A suite started in the background inherits SIGINT ignored: Ctrl-C as a terminal gives it, here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        presser = threading.Thread(target=press_ctrl_c, daemon=True)
        presser.start()
        with pytest.raises(batching.Interrupted) as stopped:
            batching.run_batch(settings, find_submissions([tmp_path / "class"], "toy"),
                               on_row=lambda row, done: seen.append(row.name))
        presser.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == ["b-empty"] and [row.name for row in stopped.value.rows] == ["b-empty"]
    assert not leftovers(str(tmp_path)), leftovers(str(tmp_path))


def test_ctrl_c_writes_nothing_and_exits_130(room, tmp_path, course_dir, monkeypatch):
    def interrupted(settings, submissions, on_row=None):
        raise batching.Interrupted([])
    monkeypatch.setattr(commands, "run_batch", interrupted)
    done = invoke("grade", "day-01", room, "-o", tmp_path / "out")
    assert done.exit_code == 130
    assert "interrupted: 0 of 4 submissions were graded" in done.stderr
    assert not (tmp_path / "out").exists()


def test_progress_is_one_plain_line_per_submission_off_a_terminal(room, tmp_path, course_dir):
    done = invoke("grade", "day-01", room / "dee", room / "eve", "-o", tmp_path / "out")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("day-01: grading 2 submissions, ")
    assert sorted(line[:6] for line in lines[1:3]) == ["[1/2] ", "[2/2] "]  # in the order they finish
    assert sorted(line[6:] for line in lines[1:3]) == ["dee: not a lab: the directory is empty",
                                                       f"eve: not a lab: {room / 'eve'} has no toy/ package"]
    assert "\r" not in done.stdout and "\033" not in done.stdout
    assert any(line.startswith("gradebook: ") for line in lines)


def test_a_terminal_gets_a_counter_line(monkeypatch):
    monkeypatch.setattr(commands.common, "is_terminal", lambda: True)
    screen = io.StringIO()
    monkeypatch.setattr(commands.sys, "stdout", screen)
    progress = commands.Progress(3)
    graded = batching.Row("ann", "/a", 1, "graded", "", 1.0, 1.0,
                          {"passed": 3, "total": 3, "bonus_passed": 1, "bonus_total": 1})
    progress(graded, 1)
    progress(batching.Row("bo", "/b", 2, "not-a-lab", "not a lab: the directory is empty"), 2)
    progress.finish()
    text = screen.getvalue()
    assert text.startswith("\r\033[K[1/3] ann: 3/3 passed, bonus 1/1 (1.0 s)")
    assert "\r\033[K[2/3] bo: not a lab: the directory is empty\n" in text  # a problem stays on screen
    assert text.endswith("\n")


def test_a_fault_of_the_batch_itself_is_still_a_row(course_dir, tmp_path, monkeypatch):
    course = load_course(course_dir / "course.toml")
    settings = batching.Settings(course=course, day=course.find_day("day-01"), batch_seed=1, jobs=1, timeout=60,
                                 env={"TMPDIR": str(tmp_path)})

    def no_space(settings, submission, scratch, running):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(batching, "grade_one", no_space)
    lab = Submission("ann", course_dir / "solutions/day-01-hello")
    (row,) = batching.run_batch(settings, [lab])
    assert (row.name, row.outcome) == ("ann", "crashed") and "No space left on device" in row.note


def test_a_day_without_checks_is_refused_before_grading(room, course_dir):
    (course_dir / "checks" / "day01" / "checks.py").unlink()
    _refused(invoke("grade", "day-01", room), "the checks of day-01 are not available yet")


def test_sigterm_stops_the_batch_and_every_grading_process(course_dir, tmp_path):
    """A cancelled CI job: the batch gets SIGTERM while a grading hangs in its import probe."""
    hangs = tmp_path / "class" / "hangs"
    shutil.copytree(course_dir / "solutions/day-01-hello", hangs)
    with open(hangs / "toy" / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write("\nimport time\nwhile True:\n    time.sleep(1)\n")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    batch = subprocess.Popen([sys.executable, "-m", "grader", "grade", "day-01", tmp_path / "class", "-o",
                              tmp_path / "out"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if any(PROBE_DIR in line for line in leftovers(str(tmp_path))):
                break
            time.sleep(0.1)
        batch.send_signal(signal.SIGTERM)
        out, err = batch.communicate(timeout=60)
    finally:
        batch.kill()
    assert batch.returncode == 130, out + err
    assert "interrupted: 0 of 1 submissions were graded" in err
    assert not (tmp_path / "out").exists()
    assert not leftovers(str(tmp_path)), leftovers(str(tmp_path))


def test_a_lab_that_stops_its_grader_costs_its_own_row_only(room, course_dir, tmp_path):
    """SIGSTOP to the grading process: it would wait for ever; the wall limit ends it."""
    stops = room / "stops"
    shutil.copytree(course_dir / "solutions/day-01-hello", stops)
    with open(stops / "toy" / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write("\nimport os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(tmp_path))
        patch.setenv("GRADER_HERMETIC", "0")  # in a hermetic view its parent is the view's init: no stop
        done = invoke("grade", "day-01", stops, room / "dee", "-o", tmp_path / "out", "--timeout", 3)
    assert done.exit_code == 0, done.stderr
    rows = jsonl_rows(tmp_path / "out")
    assert rows["stops"]["outcome"] == "timed-out" and rows["dee"]["outcome"] == "not-a-lab"
    assert not leftovers(str(tmp_path)), leftovers(str(tmp_path))


def test_help_shows_no_raw_placeholders(course_dir):
    for args in (["grade"], ["gradebook"], ["gradebook", "merge"], ["gradebook", "report"]):
        out = invoke(*args, "--help").stdout
        for raw in ("<bool>", "<list", "<str>", "<path>", "<int>", "<float>", "[[", "{day}", "{DAY}"):
            assert raw not in out, (args, raw, out)
    assert "DAY SUBMISSION..." in invoke("grade", "--help").stdout
    assert "OUT IN..." in invoke("gradebook", "merge", "--help").stdout
