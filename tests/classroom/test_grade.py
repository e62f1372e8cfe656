"""The acceptance test of `grader grade`: a class of day-01 submissions, every kind a real
class holds, graded in parallel with every check of the day, gives exactly the rows
expected and leaves no process behind.

Day 01 keeps it cheap (a grading costs about 5 s of CPU). The class, built here:

    solution          every check passes
    lab               the untouched lab: only the checks of no exercise point pass
    revert-E1..E5     the solution with one exercise point back at its scaffold: exactly
                      the checks course.toml maps to that point fail
    hangs-at-import   mca/__init__.py sleeps for ever: the import probe gives up, every
                      check is skipped with that cause
    crashes-at-import mca/__init__.py raises: the same, with the exception
    kills-the-grader  mca/__init__.py SIGKILLs its parent, the grading process: crashed
    empty             an empty directory: not a lab
    no-package        files and a src/ folder, no mca/: not a lab
    fake-pass <sc...   `python -m mca` prints a fake verdict and exits 0 (its name carries
                      HTML, which the report must escape)
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from grader.classroom.submissions import seed_for
from tests.checks import corpus
from tests.classroom.conftest import KIT, csv_rows, invoke, jsonl_rows, leftovers, statuses

DAY = corpus.COURSE.find_day("day-01")
SEED = 20261201
FAKE = 'fake-pass <script>alert("11 of 11")<b>&'  # no slash: a directory name
HANG = "import time\nwhile True:  # sleeps, so the probe's limit is what it costs\n    time.sleep(1)\n"
CRASH = 'raise RuntimeError("this lab crashes on import")\n'
KILL = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
FAKE_MAIN = ('print("day-01: 11/11 passed, bonus 2/2")\n'
             'print(\'{"schema": "agent-lab/check-result", "passed": 11, "total": 11, "checks": []}\')\n')


def _append(lab: Path, name: str, text: str) -> Path:
    with open(lab / name, "a", encoding="utf-8") as handle:
        handle.write("\n" + text)
    return lab


def build_class(root: Path) -> Path:
    room = root / "class"
    room.mkdir()
    corpus.build_lab(DAY, room / "solution")
    corpus.build_lab(DAY, room / "lab", revert=None)
    for exercise in DAY.exercises:
        corpus.build_lab(DAY, room / f"revert-{exercise.id}", revert={exercise.id})
    _append(corpus.build_lab(DAY, room / "hangs-at-import"), "mca/__init__.py", HANG)
    _append(corpus.build_lab(DAY, room / "crashes-at-import"), "mca/__init__.py", CRASH)
    _append(corpus.build_lab(DAY, room / "kills-the-grader"), "mca/__init__.py", KILL)
    (room / "empty").mkdir()
    (room / "no-package" / "src").mkdir(parents=True)
    (room / "no-package" / "README.md").write_text("my agent\n", encoding="utf-8")
    fake = corpus.build_lab(DAY, room / FAKE)
    (fake / "mca" / "__main__.py").write_text(FAKE_MAIN, encoding="utf-8")
    return room


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    root = tmp_path_factory.mktemp("classroom")
    room = build_class(root)
    scratch = root / "tmp"  # every grading's run root, so a leftover process is easy to find
    scratch.mkdir()
    out = root / "gradebook"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(scratch))
        patch.delenv("GRADER_TIMEOUT_SCALE", raising=False)
        # The weaker mode: in a hermetic view the killer's parent is the view's own init, which it
        # cannot kill, so its grading is not a crash there (tests/hostile proves what the view holds).
        patch.setenv("GRADER_HERMETIC", "0")
        done = invoke("--course", KIT, "--lang", "en", "grade", "day-01", room, "-o", out, "--seed", SEED,
                      "--jobs", 2)
    return done, out, root


def expected_statuses(failing: set[str]) -> dict[str, str]:
    return {c.id: "failed" if c.id in failing else "passed" for c in DAY.all_checks}


def test_the_batch_runs_and_writes_its_files(batch):
    done, out, _ = batch
    assert done.exit_code == 0, done.stdout + done.stderr
    assert {p.name for p in out.iterdir()} == {"batch.json", "gradebook.csv", "results.jsonl", "report.html"}
    assert "13 submissions" in done.stdout and "8 graded, 2 could not start, 3 not graded" in done.stdout
    lines = [line for line in done.stdout.splitlines() if re.match(r"\[\s*\d+/13\] ", line)]
    assert len(lines) == 13, done.stdout  # not a terminal: one plain line per submission


def test_every_submission_is_exactly_the_row_expected(batch):
    _, out, _ = batch
    rows = jsonl_rows(out)
    table = csv_rows(out)
    names = {"solution", "lab", *(f"revert-{e.id}" for e in DAY.exercises), "hangs-at-import",
             "crashes-at-import", "kills-the-grader", "empty", "no-package", FAKE}
    assert set(rows) == names and set(table) == names

    def explain(name):
        return {k: v for k, v in statuses(rows[name]).items()} | {"note": rows[name]["note"]}

    assert statuses(rows["solution"]) == expected_statuses(set()), explain("solution")
    assert statuses(rows["lab"]) == expected_statuses({c.id for c in DAY.all_checks if c.exercises}), explain("lab")
    for exercise in DAY.exercises:
        name = f"revert-{exercise.id}"
        mapped = {c.id for c in DAY.all_checks if exercise.id in c.exercises}
        assert statuses(rows[name]) == expected_statuses(mapped), explain(name)
        assert table[name]["core_passed"] == str(sum(1 for c in DAY.checks_core if c.id not in mapped))
    for name, cause in (("hangs-at-import", "did not finish"), ("crashes-at-import", "this lab crashes on import")):
        # one rule for a lab that could not start: its own outcome, its cause in one line, no score
        assert rows[name]["outcome"] == "cannot-start"
        assert set(statuses(rows[name]).values()) == {"skipped"}  # the record keeps the grader's result
        assert rows[name]["result"]["blocked"] and cause in rows[name]["note"], rows[name]["note"]
        assert "\n" not in rows[name]["note"]
        assert table[name]["core_passed"] == "" and table[name]["note"] == rows[name]["note"]
        assert all(table[name][c.id] == "" for c in DAY.all_checks)
    assert rows["kills-the-grader"]["outcome"] == "crashed" and rows["kills-the-grader"]["result"] is None
    assert "SIGKILL" in rows["kills-the-grader"]["note"]
    assert (rows["empty"]["outcome"], rows["empty"]["note"]) == ("not-a-lab", "not a lab: the directory is empty")
    assert rows["no-package"]["outcome"] == "not-a-lab" and "no mca/ package" in rows["no-package"]["note"]
    for name in ("kills-the-grader", "empty", "no-package"):
        assert table[name]["core_passed"] == "" and all(table[name][c.id] == "" for c in DAY.all_checks)
        assert table[name]["outcome"] == rows[name]["outcome"] and table[name]["note"] == rows[name]["note"]
    for name, row in table.items():
        shown = statuses(rows[name]) if rows[name]["outcome"] == "graded" else {}
        assert [row[c.id] for c in DAY.all_checks] == [shown.get(c.id, "") for c in DAY.all_checks]


def test_a_fake_verdict_printed_by_the_lab_counts_for_nothing(batch):
    _, out, _ = batch
    row = jsonl_rows(out)[FAKE]
    assert row["outcome"] == "graded"
    assert statuses(row)["one-shot"] == "failed"
    assert row["result"]["passed"] < row["result"]["total"] == len(DAY.checks_core)
    assert csv_rows(out)[FAKE]["core_passed"] == str(row["result"]["passed"])


def test_each_row_carries_its_full_result_and_its_own_seed(batch):
    _, out, root = batch
    for name, row in jsonl_rows(out).items():
        assert row["seed"] == seed_for(SEED, name)
        assert row["submission"] == str(root / "class" / name)
        if row["result"] is not None:
            assert row["result"]["seed"] == row["seed"] and row["result"]["day_id"] == "day-01"
            assert {"checks", "bonus", "environment", "duration", "blocked", "passed", "total"} <= set(row["result"])
    assert len({row["seed"] for row in jsonl_rows(out).values()}) == 13


def test_the_gradings_ran_side_by_side(batch):
    _, out, _ = batch
    spans = sorted((row["started"], row["started"] + row["wall_seconds"])
                   for row in jsonl_rows(out).values() if row["started"])
    assert len(spans) == 11  # every submission but the two that are not labs had a grading process
    assert any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:])), spans


def test_no_process_of_the_batch_survives(batch):
    _, _, root = batch
    assert not leftovers(str(root)), leftovers(str(root))
    assert not list((root / "tmp").iterdir()), "a grading left its run root behind"


def test_the_class_report_names_everyone_escaped(batch):
    _, out, _ = batch
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page and FAKE not in page and html.escape(FAKE, quote=True) in page
    for name in ("solution", "revert-E3", "kills-the-grader", "no-package"):
        assert f">{name}</td>" in page


def test_a_grading_that_outlives_its_wall_limit_is_stopped_with_everything_it_started(tmp_path):
    """The import probe would wait 20 s; the wall limit of 3 s stops the grading first,
    and the sleeping probe (a session of its own, under the grading process) goes with it."""
    room = tmp_path / "class"
    room.mkdir()
    _append(corpus.build_lab(DAY, room / "hangs"), "mca/__init__.py", HANG)
    (room / "empty").mkdir()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(scratch))
        patch.delenv("GRADER_TIMEOUT_SCALE", raising=False)
        done = invoke("--course", KIT, "grade", "day-01", room, "-o", tmp_path / "out", "--timeout", 3)
    assert done.exit_code == 0, done.stdout + done.stderr
    rows = jsonl_rows(tmp_path / "out")
    assert rows["hangs"]["outcome"] == "timed-out" and rows["hangs"]["result"] is None
    assert "more than 3 s" in rows["hangs"]["note"]
    assert rows["empty"]["outcome"] == "not-a-lab"
    assert csv_rows(tmp_path / "out")["hangs"]["note"] == rows["hangs"]["note"]
    assert not leftovers(str(tmp_path)), leftovers(str(tmp_path))
