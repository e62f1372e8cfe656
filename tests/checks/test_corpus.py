"""Every day's checks are neither fooled nor unfair, proven on its corpus.

For each day with a corpus (tests/checks/dayNN/):

* the reference solution passes every core and bonus check;
* each alternate (a correct implementation written differently) passes everything;
* each mutant (one plausible wrong implementation of one exercise point) fails exactly
  the checks it names in FAILS, as "failed" with a message and a hint, and passes the
  others it is graded with (every core check resting on the points its FAILS rest on or on
  none: conftest.judged_checks); a mutant never fails a core check mapped to another
  exercise point;
* the scaffold lab scores `scaffold_passes`, and reverting one exercise point fails
  exactly the checks course.toml maps to it;
* grading never changes a byte of the lab nor writes into its current directory.
"""

from __future__ import annotations

import pytest

from grader import engine
from grader.spawn import hermetic
from tests.checks import corpus
from tests.checks.conftest import uses


def hermetic_here() -> bool:
    """Lab children get a view of their own in this suite's gradings (bwrap works, not turned off)."""
    return engine.hermetic_children() and bool(hermetic.find().bwrap)

DAYS = corpus.days_with_corpus()
PATCHES = {f"{day.id}/{kind}/{p.name}": (day, p) for day in DAYS for kind in ("mutants", "alternates")
           for p in corpus.patches(day, kind)}
MUTANTS = sorted(name for name in PATCHES if "/mutants/" in name)
ALTERNATES = sorted(name for name in PATCHES if "/alternates/" in name)
REVERTS = [f"{day.id}/revert-{e.id}" for day in DAYS for e in day.exercises]
ALL_LABS = [f"{day.id}/{name}" for day in DAYS for name in ("solution", "scaffold-lab")] + REVERTS + MUTANTS + \
    ALTERNATES


def day_of(lab_name: str):
    return corpus.COURSE.find_day(lab_name.split("/")[0])


def ids(day, bonus: bool | None = None) -> set[str]:
    checks = day.all_checks if bonus is None else (day.checks_bonus if bonus else day.checks_core)
    return {c.id for c in checks}


# --------------------------------------------------------------------------- fair

@pytest.mark.parametrize("lab_name", [f"{day.id}/solution" for day in DAYS])
def test_solution_passes_every_check(gradings, lab_name):
    day = day_of(lab_name)
    graded = gradings.get(lab_name)
    assert graded.failing == set(), graded.explain()
    assert [c["id"] for c in graded.report["checks"] + graded.report["bonus"]] == [c.id for c in day.all_checks]


@pytest.mark.parametrize("lab_name", ALTERNATES)
def test_alternate_implementation_passes_every_check(gradings, lab_name):
    graded = gradings.get(lab_name)
    assert graded.failing == set(), f"{PATCHES[lab_name][1].doc}\n{graded.explain()}"


# --------------------------------------------------------------------------- not fooled

@pytest.mark.parametrize("lab_name", MUTANTS)
def test_mutant_fails_exactly_its_checks(gradings, lab_name):
    day, patch = PATCHES[lab_name]
    assert patch.fails, f"{patch.path.name} must name the checks it fails (FAILS)"
    assert patch.fails <= ids(day), f"unknown check ids in {patch.path.name}: {patch.fails - ids(day)}"
    if patch.hermetic and not hermetic_here():
        pytest.skip(f"a cheat only the hermetic mode holds; here: {hermetic.find().why or 'GRADER_HERMETIC=0'}")
    graded = gradings.get(lab_name)
    assert patch.fails <= graded.failing <= patch.fails | patch.maybe, f"{patch.doc}\n{graded.explain()}"
    for check_id in graded.failing:
        result = graded.check(check_id)
        assert result["status"] == "failed", f"{check_id} should fail, not {result['status']}: {result['message']}"
        assert result["message"] and "Traceback" not in result["message"]
        assert result["hint"], "a failing check carries its first hint"


@pytest.mark.parametrize("lab_name", MUTANTS)
def test_a_mutant_in_one_point_fails_no_core_check_of_another(lab_name):
    """The intended FAILS themselves respect the mapping: a mistake in one point never
    fails a core check that rests (course.toml `exercises` or `depends`) on other points only."""
    day, patch = PATCHES[lab_name]
    points = {c.id: set(c.exercises) | set(c.depends) for c in day.checks_core}
    mapped = [check_id for check_id in (patch.fails | patch.maybe) & ids(day, bonus=False) if points[check_id]]
    common = set.intersection(*(points[c] for c in mapped)) if mapped else {"any"}
    assert common, f"{patch.path.name} fails core checks that rest on no one point in common: {sorted(mapped)}"


@pytest.mark.parametrize("day", DAYS, ids=lambda d: d.id)
def test_the_corpus_covers_every_exercise_point_and_core_check(day):
    fails = [p.fails for name, (d, p) in PATCHES.items() if d is day and "/mutants/" in name]  # MAYBE does not count
    exercised = {c.id for c in day.checks_core if c.exercises}
    assert exercised <= set().union(*fails), exercised - set().union(*fails)


MIN_MUTANTS, MIN_ALTERNATES = 10, 3  # the least a day's corpus holds (docs/adding-a-day.md)


@pytest.mark.parametrize("day", [d for d in corpus.COURSE.days if (d.checks_dir / "checks.py").is_file()],
                         ids=lambda d: d.id)
def test_every_day_has_a_corpus_of_ten_wrong_and_three_correct_variants(day):
    """A day whose checks were never graded on enough plausible mistakes and correct variants
    has not shown that they are neither fooled nor unfair."""
    wrong, right = (len(corpus.patches(day, kind)) if corpus.corpus_dir(day).is_dir() else 0
                    for kind in ("mutants", "alternates"))
    assert wrong >= MIN_MUTANTS and right >= MIN_ALTERNATES, (
        f"{day.id}: {wrong} mutants and {right} alternates in tests/checks/{corpus.corpus_dir(day).name}/; "
        f"a day needs at least {MIN_MUTANTS} and {MIN_ALTERNATES}")


# --------------------------------------------------------------------------- the contract's mapping

@pytest.mark.parametrize("lab_name", [f"{day.id}/scaffold-lab" for day in DAYS])
def test_scaffold_lab_passes_exactly_the_checks_without_exercise_points(gradings, lab_name):
    day = day_of(lab_name)
    graded = gradings.get(lab_name)
    core_failing = graded.failing & ids(day, bonus=False)
    assert len(day.checks_core) - len(core_failing) == day.scaffold_passes, graded.explain()
    assert core_failing == {c.id for c in day.checks_core if c.exercises}, graded.explain()
    for check_id in core_failing:
        assert graded.check(check_id)["status"] == "failed", graded.explain()


@pytest.mark.parametrize("lab_name", REVERTS)
def test_reverting_one_exercise_point_fails_exactly_its_checks(gradings, lab_name):
    day = day_of(lab_name)
    exercise = lab_name.rsplit("revert-", 1)[1]
    graded = gradings.get(lab_name)
    assert graded.failing == {c.id for c in day.all_checks if exercise in c.exercises}, graded.explain()


# --------------------------------------------------------------------------- hygiene

@pytest.mark.parametrize("lab_name", ALL_LABS)
def test_grading_leaves_the_lab_and_the_cwd_untouched(gradings, lab_name):
    graded = gradings.get(lab_name)
    assert graded.tree_after == graded.tree_before, f"grading {lab_name} changed files in the lab"
    assert graded.cwd_left == [], f"grading {lab_name} wrote {graded.cwd_left} into its cwd"
    statuses = set(graded.statuses.values())
    assert statuses <= {"passed", "failed"}, f"a check broke or timed out:\n{graded.explain()}"


@uses(*[f"{day.id}/scaffold-lab" for day in DAYS])
def test_every_failing_check_of_the_scaffold_says_what_and_hints(gradings):
    for day in DAYS:
        graded = gradings.get(f"{day.id}/scaffold-lab")
        for check_id in graded.failing:
            result = graded.check(check_id)
            assert result["message"].strip() and result["hint"], (day.id, check_id, result)
            assert len(result["message"].splitlines()) <= 2, (day.id, check_id, result["message"])
