"""The day-07 checks are neither fooled nor unfair.

* The reference solution passes all 11 checks and every bonus check.
* Each mutant (tests/checks/mutants/: one plausible wrong implementation, as a small
  patch of the solution) fails exactly the checks it names in FAILS, as "failed"
  with a message, and passes all the others.
* Each alternate (tests/checks/alternates/: a correct implementation written
  differently from the reference) passes everything.
* The scaffold lab scores `scaffold_passes`, and reverting one exercise point fails
  exactly the core checks course.toml maps to it.
* Grading never changes a byte of the lab (no __pycache__, no .sessions) nor writes
  into its current directory.
"""

from __future__ import annotations

import importlib
import re
import tomllib

import pytest

from grader.course import load_course
from tests.checks import mutation
from tests.checks.conftest import COURSE, EXERCISES

DAY = load_course(COURSE).find_day("day-07")
CORE = [c.id for c in DAY.checks_core]
BONUS = [c.id for c in DAY.checks_bonus]
MUTANTS = [f"mutants/{p.name}" for p in mutation.patches("mutants")]
ALTERNATES = [f"alternates/{p.name}" for p in mutation.patches("alternates")]
PATCHES = {f"{kind}/{p.name}": p for kind in ("mutants", "alternates") for p in mutation.patches(kind)}
ALL_LABS = ["solution", "scaffold-lab", *(f"revert-{e}" for e in EXERCISES), *MUTANTS, *ALTERNATES]


def uses(*names):
    """Tell the `gradings` fixture which labs a non-parametrized test needs."""
    def mark(function):
        function.labs_used = list(names)
        return function
    return mark


def mapped(exercise: str, bonus: bool) -> set[str]:
    checks = DAY.checks_bonus if bonus else DAY.checks_core
    return {c.id for c in checks if exercise in c.exercises}


# --------------------------------------------------------------------------- fair

@uses("solution")
def test_solution_passes_every_check(gradings):
    graded = gradings.get("solution")
    assert graded.failing == set(), graded.explain()
    report = graded.report
    assert (report["passed"], report["total"]) == (11, 11)
    assert (report["bonus_passed"], report["bonus_total"]) == (len(BONUS), len(BONUS))
    assert [c["id"] for c in report["checks"]] == CORE + BONUS


@pytest.mark.parametrize("lab_name", ALTERNATES)
def test_alternate_implementation_passes_every_check(gradings, lab_name):
    graded = gradings.get(lab_name)
    assert graded.failing == set(), f"{PATCHES[lab_name].doc}\n{graded.explain()}"


# --------------------------------------------------------------------------- not fooled

@pytest.mark.parametrize("lab_name", MUTANTS)
def test_mutant_fails_exactly_its_checks(gradings, lab_name):
    patch = PATCHES[lab_name]
    assert patch.fails, f"{patch.path.name} must name the checks it fails (FAILS)"
    assert patch.fails <= set(CORE + BONUS), f"unknown check ids in {patch.path.name}: {patch.fails}"
    graded = gradings.get(lab_name)
    assert graded.failing == patch.fails, f"{patch.doc}\n{graded.explain()}"
    for check_id in patch.fails:
        result = graded.check(check_id)
        assert result["status"] == "failed", f"{check_id} should fail, not {result['status']}: {result['message']}"
        assert result["message"] and "Traceback" not in result["message"]
        assert result["hint"], "a failing check carries its first hint"


def test_mutants_cover_every_exercise_point_and_core_check():
    """Between them the mutants and the reverts break every core check that has an exercise point."""
    failed = set().union(*(PATCHES[name].fails for name in MUTANTS))
    exercised = {c.id for c in DAY.checks_core if c.exercises}
    assert exercised <= failed
    assert len(MUTANTS) >= 8 and len(ALTERNATES) >= 2


# --------------------------------------------------------------------------- the contract's mapping

@uses("scaffold-lab")
def test_scaffold_lab_passes_exactly_the_checks_without_exercise_points(gradings):
    graded = gradings.get("scaffold-lab")
    core_failing = graded.failing & set(CORE)
    assert len(CORE) - len(core_failing) == DAY.scaffold_passes, graded.explain()
    assert core_failing == {c.id for c in DAY.checks_core if c.exercises}, graded.explain()
    for check_id in core_failing:
        assert graded.check(check_id)["status"] == "failed", graded.explain()


@pytest.mark.parametrize("lab_name", [f"revert-{e}" for e in EXERCISES])
def test_reverting_one_exercise_point_fails_exactly_its_core_checks(gradings, lab_name):
    exercise = lab_name.removeprefix("revert-")
    graded = gradings.get(lab_name)
    assert graded.failing & set(CORE) == mapped(exercise, bonus=False), graded.explain()


@pytest.mark.parametrize("lab_name", [f"revert-{e}" for e in EXERCISES])
def test_reverting_one_exercise_point_fails_exactly_its_bonus_checks(gradings, lab_name):
    exercise = lab_name.removeprefix("revert-")
    graded = gradings.get(lab_name)
    assert graded.failing & set(BONUS) == mapped(exercise, bonus=True), graded.explain()


# --------------------------------------------------------------------------- hygiene

@pytest.mark.parametrize("lab_name", ALL_LABS)
def test_grading_leaves_the_lab_and_the_cwd_untouched(gradings, lab_name):
    graded = gradings.get(lab_name)
    assert graded.tree_after == graded.tree_before, f"grading {lab_name} changed files in the lab"
    assert graded.cwd_left == [], f"grading {lab_name} wrote {graded.cwd_left} into its cwd"
    statuses = set(graded.statuses.values())
    assert statuses <= {"passed", "failed"}, f"a check broke or timed out:\n{graded.explain()}"


# --------------------------------------------------------------------------- the module itself

def checks_module():
    return importlib.import_module("grader.checks.day07")


def test_every_check_is_there_in_order_with_its_title():
    module = checks_module()
    tests = [name for name in vars(module) if name.startswith("test_")]
    assert tests == ["test_" + c.id.replace("-", "_") for c in DAY.all_checks]
    for check in DAY.all_checks:
        assert getattr(module, "test_" + check.id.replace("-", "_")).__doc__ == check.title


def test_every_message_the_checks_use_is_in_the_catalogue():
    module = checks_module()
    source = (mutation.KIT / "grader" / "checks" / "day07.py").read_text(encoding="utf-8")
    used = set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', source))
    catalogue = tomllib.loads((mutation.KIT / "grader" / "checks" / "day07" / "messages.toml").read_text())
    known = {f"{section}.{name}" for section, entries in catalogue.items() for name in entries}
    assert used and used <= known, sorted(used - known)
    assert module.MESSAGES == catalogue


def test_first_sentence_and_numbers():
    module = checks_module()
    assert module.first_sentence("The earlier run showed test_divide_by_zero failing: divide() lets "
                                 "a zero divisor through. I will fix it.") == (
        "The earlier run showed test_divide_by_zero failing: divide() lets a zero divisor through.")
    assert module.first_sentence("no full stop") == "no full stop"
    said = "cannot fork s-20261129-103309-7300 at 4: not a clean boundary; fork points: 2, 8, 9, 19"
    assert module.numbers_in(said) == {4, 2, 8, 9, 19}


def test_cut_last_line(tmp_path):
    module = checks_module()
    log = tmp_path / "x.jsonl"
    log.write_bytes(b'{"a": 1}\n{"b": 22222}\n')
    module.cut_last_line(log)
    assert log.read_bytes() == b'{"a": 1}\n{"b": '  # 13 bytes, cut to 6
    log.write_bytes(b'{"a": 1}\n{"b": 22222}\n')
    module.cut_last_line(log, keep_newline_only=True)
    assert log.read_bytes() == b'{"a": 1}\n{"b": 22222}'


def test_canonical_logs_have_the_contract_shape():
    logs = mutation.KIT / "grader" / "checks" / "day07" / "logs"
    for name, count in (("round1", 8), ("two-rounds", 19), ("hello", 4)):
        files = list((logs / name).glob("*.jsonl"))
        assert len(files) == 1 and re.fullmatch(r"s-\d{8}-\d{6}-[0-9a-f]{4}", files[0].stem)
        lines = files[0].read_bytes().splitlines(keepends=True)
        assert len(lines) == count and all(line.endswith(b"\n") for line in lines)
    round1 = next((logs / "round1").glob("*.jsonl")).read_bytes()
    two = next((logs / "two-rounds").glob("*.jsonl")).read_bytes()
    assert two.startswith(round1), "the two-round log continues the round-1 session"


# --------------------------------------------------------------------------- what a student reads

@uses("mutants/replay_crashes")
def test_a_crashed_child_shows_the_end_of_its_traceback(gradings):
    graded = gradings.get("mutants/replay_crashes")
    check = graded.check("resume-across-processes")
    assert "exited with status 1" in check["message"]
    assert "TypeError" in check["seen"] and "not subscriptable" in check["seen"], check
    inspected = graded.check("replay-counts")  # log inspect turns the crash into a note
    assert "replay() raised TypeError" in inspected["message"] and "replay.py, line" in inspected["message"], inspected


@uses("scaffold-lab")
def test_a_stub_shows_its_not_implemented_line(gradings):
    graded = gradings.get("scaffold-lab")
    resume = graded.check("resume-across-processes")
    assert "not implemented yet: TODO(E2)" in resume["seen"], resume
    replay = graded.check("replay-counts")
    assert "replayed" in replay["message"] and "TODO(E2)" in replay["message"], replay
    torn = graded.check("torn-tail")
    assert torn["message"] == ("expected reading to stop at line 8 (the last line cut in half), "
                               "but it returned 7 events and reported nothing")
