"""`grader verify`: the instructor's proof that the kit is gradable.

For each day: the committed solution and lab equal the generated ones; every
generated Python file compiles; nothing in them comes from a later day; every
exercise point has exactly one region, every TODO stub says TODO(En), every check
has its three hint levels, a docstring equal to its title, and maps to known points;
the solution passes every check (core and bonus); the lab passes exactly
`scaffold_passes` core checks; and reverting any single exercise point fails exactly
the checks course.toml maps to it. Each fact is one row with a detail that says what
to fix.

`verify_student` is the smaller proof the student edition can give (it has no solutions):
the grader's files are the ones shipped, and each day's untouched lab scores exactly
`scaffold_passes`, the count course.toml records.

Grading runs are independent (each gets its own temp tree) and run two at a time.
The real engine runs pytest in process, which is not thread-safe, so with it each
run happens in a fresh child process; an injected run_day (tests) runs in threads.
"""
from __future__ import annotations

import pickle
import shutil
import tempfile
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from grader import scaffold
from grader.course import CourseError
from grader.i18n import word
from grader.lab.backups import UnknownDay
from grader.scaffold import trees
from grader.verify.static import VerifyRow, static_rows
from grader.verify.table import VerifyReport, render_table  # noqa: F401 (render_table: grader verify prints it)

PASSED = "passed"


def _engine_run(course, day, lab: Path):
    """Runs in a child process: the real engine, imported there."""
    from grader.engine import run_day
    return run_day(course, day, lab)


def _statuses(result) -> dict[str, tuple[str, str]]:
    return {c.id: (c.status, getattr(c, "message", "") or "")
            for c in [*result.checks, *result.bonus]}


def _solution_row(day, result) -> VerifyRow:
    got = _statuses(result)
    bad = [f"{c.id} ({got.get(c.id, ('not reported', ''))[0]})" for c in list(day.all_checks)
           if got.get(c.id, ("",))[0] != PASSED]
    core = len(day.checks_core)
    detail = (f"not passed: {', '.join(bad)} - fix the solution or the check" if bad
              else f"{core}/{core} core, bonus {len(day.checks_bonus)}/{len(day.checks_bonus)}")
    return VerifyRow(day.id, "solution passes every check", not bad, detail)


def _lab_findings(day, result) -> tuple[set, list, list, list]:
    """What a run of the untouched lab shows against course.toml: the core checks that
    passed, those that passed though they map to exercise points (with the points), those
    that failed though they map to none, and every check that errored."""
    got = _statuses(result)
    core = day.checks_core
    passed = {c.id for c in core if got.get(c.id, ("",))[0] == PASSED}
    errored = [c.id for c in list(day.all_checks) if got.get(c.id, ("",))[0] == "error"]
    expected = {c.id for c in core if not c.exercises}
    mapped = [(cid, ", ".join(next(c.exercises for c in core if c.id == cid))) for cid in sorted(passed - expected)]
    return passed, mapped, sorted(expected - passed), errored


def _lab_row(day, result, drifted: bool = False) -> VerifyRow:
    """The committed lab's row. When that lab differs from the generated one (`drifted`, the
    drift row above says how), what it scores says nothing about the scaffold: the row
    says so instead of blaming the scaffold check by check."""
    passed, mapped, unmapped, errored = _lab_findings(day, result)
    total = len(day.checks_core)
    item = f"lab scores {day.scaffold_passes}/{total}"
    notes = []
    if len(passed) != day.scaffold_passes:
        notes.append(f"the lab scores {len(passed)}/{total} but scaffold_passes = {day.scaffold_passes}")
    if drifted:
        if mapped:
            notes.append(f"{', '.join(cid for cid, _ in mapped)} pass on the lab though they map to exercise points")
        if unmapped:
            notes.append(f"{', '.join(unmapped)} fail on the lab though they map to none")
    else:
        for cid, maps in mapped:
            notes.append(f"{cid} passes on the lab though it maps to {maps}: its scaffold does not break it")
        for cid in unmapped:
            notes.append(f"{cid} fails on the lab though it maps to no exercise point")
    if errored:
        notes.append(f"check(s) errored (the check itself broke): {', '.join(errored)}")
    ok = len(passed) == day.scaffold_passes and not errored
    detail = "; ".join(notes)
    if drifted and notes:
        detail += " (the lab differs from the generated one, see above)"
    return VerifyRow(day.id, item, ok, detail)


def _revert_row(day, ex_id: str, result) -> VerifyRow:
    got = _statuses(result)
    checks = list(day.all_checks)
    expected = [c.id for c in checks if ex_id in c.exercises]
    failed = [c.id for c in checks if got.get(c.id, ("",))[0] != PASSED]
    also = [cid for cid in failed if cid not in expected]
    still = [cid for cid in expected if cid not in failed]
    errored = [f"{cid} ({got[cid][1] or 'no message'})" for cid in expected
               if got.get(cid, ("",))[0] == "error"]
    maps = ", ".join(expected) or "no check"
    notes = []
    if also:
        notes.append(f"reverting {ex_id} also failed {', '.join(also)}: course.toml maps {ex_id} to {maps}")
    if still:
        notes.append(f"reverting {ex_id} still passed {', '.join(still)}, which course.toml maps to "
                     f"{ex_id}: the check misses the scaffold, or the mapping is wrong")
    if errored:
        notes.append(f"errored instead of failing (the check itself broke): {', '.join(errored)}")
    detail = "; ".join(notes) or f"fails exactly {maps}"
    return VerifyRow(day.id, f"revert {ex_id}", not notes, detail)


class _Inline(Executor):
    """Runs each job at once in the calling thread (the engine may need the main thread)."""

    def submit(self, fn, /, *args, **kwargs):
        future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def _make_pool(run_day, course, days, workers: int) -> tuple[Executor, object]:
    if run_day is not None:
        return (ThreadPoolExecutor(workers) if workers > 1 else _Inline()), run_day
    try:
        pickle.dumps((course, days))
        if workers > 1:
            pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), max_tasks_per_child=1)
            return pool, _engine_run
    except (pickle.PicklingError, TypeError, AttributeError):
        pass
    return _Inline(), _engine_run   # one at a time, in this thread


def verify(course, day_ids=None, *, run_day=None, workers: int = 2, progress=None) -> VerifyReport:
    """Verify the given days (ids, slugs, numbers or Day objects; default: all).
    run_day(course, day, lab) -> DayResult; default: grader.engine.run_day.
    `progress(day_id, graded, runs, days_done, days)` is called as each grading run is
    judged (the CLI's progress line on a terminal).
    Raises backups.UnknownDay for a day not in the course."""
    try:
        days = [course.find_day(d) for d in day_ids] if day_ids else list(course.days)
    except CourseError as exc:
        raise UnknownDay(str(exc)) from exc
    pool, run = _make_pool(run_day, course, days, workers)
    plan: list[tuple] = []     # (day, rows-or-None, label, future, tempdir)
    try:
        with pool:
            for day in days:
                plan += _submit_day(day, course, pool, run)
            drifted = {day.id for day in days if _lab_drifts(course, day)}
            report = VerifyReport()
            runs = {day.id: sum(1 for d, rows, *_ in plan if d is day and rows is None) for day in days}
            graded = dict.fromkeys(runs, 0)
            for day, rows, label, future, _ in plan:
                if rows is not None:
                    report.rows += rows
                    continue
                try:
                    report.rows.append(_judge(day, label, future.result(), day.id in drifted))
                except Exception as exc:  # the engine could not grade: report it, keep verifying
                    report.rows.append(_run_failed_row(day, label, f"grading run failed: "
                                                       f"{type(exc).__name__}: {exc}"))
                graded[day.id] += 1
                if progress is not None:
                    done = sum(1 for d in days if graded[d.id] == runs[d.id])
                    progress(day.id, graded[day.id], runs[day.id], done, len(days))
    finally:   # temp trees go even on Ctrl+C
        for *_, tmp in plan:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
    return report


def _lab_drifts(course, day) -> bool:
    """Whether the committed lab differs from what the generator makes now."""
    try:
        return any(str(d).startswith("lab: ") for d in scaffold.diff(course, day))
    except (*scaffold.ERRORS, OSError):
        return False


def _submit_day(day, course, pool: Executor, run) -> list[tuple]:
    """The static rows of a day, then one submitted grading run per tree."""
    rows, found = static_rows(course, day)
    plan = [(day, rows, None, None, None)]
    for label, build in _runs(course, day, found):
        tmp = Path(tempfile.mkdtemp(prefix=f"grader-verify-{day.id}-"))
        lab = tmp / Path(day.lab).name
        try:
            tree, modes = build()
            trees.write_tree(tree, lab, modes)
        except (*scaffold.ERRORS, OSError) as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            plan.append((day, [_run_failed_row(day, label, f"cannot build the tree: {exc}")], None, None, None))
            continue
        plan.append((day, None, label, pool.submit(run, course, day, lab), tmp))
    return plan


def _runs(course, day, found: dict | None):
    """(label, tree builder) for every grading run of a day."""
    yield "solution", lambda: scaffold.build(course, day, lab=False)

    def committed_lab():
        from grader.course.manifest import mistyped_path

        lab = Path(day.lab)
        wrong = mistyped_path(course, day, "lab")
        if wrong:
            raise scaffold.ScaffoldError(wrong)
        if not lab.is_dir():
            raise scaffold.ScaffoldError(f"{lab}: lab directory missing. Fix: generate it with "
                                         f"`python -m grader.scaffold {day.id}`")
        return trees.read_tree(lab, course.runtime_dirs), {}
    yield "lab", committed_lab
    for ex in day.exercises:
        if found is not None and ex.id in found:
            yield f"revert {ex.id}", (lambda e=ex.id: scaffold.build(course, day, lab=False, revert={e}))
        else:
            yield f"revert {ex.id}", _cannot(ex.id)


def _cannot(ex_id: str):
    def build():
        raise scaffold.ScaffoldError(f"no usable region for {ex_id}. Fix: fix the region rows above first")
    return build


def _judge(day, label: str, result, drifted: bool = False) -> VerifyRow:
    if label == "solution":
        return _solution_row(day, result)
    if label == "lab":
        return _lab_row(day, result, drifted)
    return _revert_row(day, label.removeprefix("revert "), result)


def _run_failed_row(day, label: str, detail: str) -> VerifyRow:
    item = {"solution": "solution passes every check",
            "lab": f"lab scores {day.scaffold_passes}/{len(day.checks_core)}"}.get(label, label)
    return VerifyRow(day.id, item, False, detail)


def verify_student(course, day_ids=None, *, run_day=None, workers: int = 2, progress=None) -> VerifyReport:
    """The proof a student edition can give that it grades (the kit can run it too): the
    grader's files are those its record ships (grader/shipped.sha256, as `check --ci`
    holds them), and each day's untouched lab (the edition's pristine copy, in the kit
    the generated lab) scores its `scaffold_passes` from course.toml. Its rows speak the
    chosen language: students run it."""
    from grader import integrity
    from grader.i18n import word

    try:
        days = [course.find_day(d) for d in day_ids] if day_ids else list(course.days)
    except CourseError as exc:
        raise UnknownDay(str(exc)) from exc
    report = VerifyReport()
    problems = integrity.tampered(course.root)
    listed = ", ".join(map(str, problems[:5])) + (" ..." if len(problems) > 5 else "")
    report.rows.append(VerifyRow("*", word("verify.files_item"), not problems,
                                 word("verify.files_differ", count=len(problems), files=listed) if problems
                                 else word("verify.files_ok")))
    pool, run = _make_pool(run_day, course, days, workers)
    plan: list[tuple] = []

    def failed(day, detail: str) -> VerifyRow:
        return VerifyRow(day.id, word("verify.lab_item", passes=day.scaffold_passes, total=len(day.checks_core)),
                         False, detail)

    try:
        with pool:
            for day in days:
                tmp = Path(tempfile.mkdtemp(prefix=f"grader-verify-{day.id}-"))
                lab = tmp / Path(day.lab).name
                try:
                    tree, modes = scaffold.build(course, day, lab=True)
                    trees.write_tree(tree, lab, modes)
                except (*scaffold.ERRORS, OSError) as exc:
                    shutil.rmtree(tmp, ignore_errors=True)
                    report.rows.append(failed(day, word("verify.lab_cannot_build", error=exc)))
                    continue
                plan.append((day, pool.submit(run, course, day, lab), tmp))
            for done, (day, future, _) in enumerate(plan, 1):
                try:
                    report.rows.append(_student_lab_row(day, future.result()))
                except Exception as exc:  # the engine could not grade: report it, keep verifying
                    report.rows.append(failed(day, word("verify.lab_run_failed", error=f"{type(exc).__name__}: {exc}")))
                if progress is not None:
                    progress(day.id, 1, 1, done, len(plan))
    finally:
        for *_, tmp in plan:
            shutil.rmtree(tmp, ignore_errors=True)
    return report


def _student_lab_row(day, result) -> VerifyRow:
    """`_lab_row` in the chosen language: the untouched lab scores exactly scaffold_passes."""
    from grader.i18n import word

    passed, mapped, unmapped, errored = _lab_findings(day, result)
    total = len(day.checks_core)
    notes = []
    if len(passed) != day.scaffold_passes:
        notes.append(word("verify.lab_count", passed=len(passed), total=total, expected=day.scaffold_passes))
    for cid, points in mapped:
        notes.append(word("verify.lab_passes_mapped", check=cid, points=points))
    for cid in unmapped:
        notes.append(word("verify.lab_fails_unmapped", check=cid))
    if errored:
        notes.append(word("verify.lab_errored", checks=", ".join(errored)))
    return VerifyRow(day.id, word("verify.lab_item", passes=day.scaffold_passes, total=total),
                     len(passed) == day.scaffold_passes and not errored, "; ".join(notes))
