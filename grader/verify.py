"""`grader verify`: the instructor's proof that the kit is gradable.

For each day: the committed lab equals the generated one; every exercise point has
exactly one region, every TODO stub says TODO(En), every check has a hint and maps to
known points; the solution passes every check (core and bonus); the lab passes
exactly `scaffold_passes` core checks; and reverting any single exercise point fails
exactly the checks course.toml maps to it. Each fact is one row with a detail that
says what to fix.

Grading runs are independent (each gets its own temp tree) and run two at a time.
The real engine runs pytest in process, which is not thread-safe, so with it each
run happens in a fresh child process; an injected run_day (tests) runs in threads.
"""
from __future__ import annotations

import pickle
import shutil
import tempfile
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from grader import scaffold
from grader.backups import resolve_day, UnknownDay  # noqa: F401  (UnknownDay: for callers)

PASSED = "passed"


@dataclass(frozen=True)
class VerifyRow:
    day: str
    item: str
    ok: bool
    detail: str = ""


@dataclass
class VerifyReport:
    rows: list[VerifyRow] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and all(row.ok for row in self.rows)

    @property
    def failures(self) -> list[VerifyRow]:
        return [row for row in self.rows if not row.ok]


def render_table(report: VerifyReport) -> str:
    """A plain table, one row per fact, then one summary line."""
    head = ("day", "item", "result", "detail")
    body = [(r.day, r.item, "ok" if r.ok else "FAIL", r.detail) for r in report.rows]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3]
             for row in [head, *body]]
    held = sum(r.ok for r in report.rows)
    summary = (f"verify: all {held} items hold" if report.ok
               else f"verify: {held}/{len(report.rows)} items hold, {len(report.failures)} to fix")
    return "\n".join(line.rstrip() for line in lines) + "\n" + summary + "\n"


def _engine_run(course, day, lab: Path):
    """Runs in a child process: the real engine, imported there."""
    from grader.engine import run_day
    return run_day(course, day, lab)


def _root(course) -> Path:
    return Path(course.root)


def _static_rows(day, root: Path) -> tuple[list[VerifyRow], dict | None]:
    rows = []
    try:
        drift = scaffold.diff_lab(day, root)
        detail = "; ".join(map(str, drift[:5])) + (f"; and {len(drift) - 5} more" if len(drift) > 5 else "")
        if drift:
            detail += f" - regenerate with `python -m grader.scaffold {day.id}` (or `grader reset`)"
        rows.append(VerifyRow(day.id, "lab equals generated lab", not drift, detail or "no drift"))
    except (scaffold.ScaffoldError, OSError) as exc:
        rows.append(VerifyRow(day.id, "lab equals generated lab", False, str(exc)))
    try:
        found = scaffold.regions(day, root)
    except (scaffold.ScaffoldError, OSError) as exc:
        rows.append(VerifyRow(day.id, "one region per exercise point", False, str(exc)))
        found = None
    if found is not None:
        rows += _region_rows(day, found)
    rows.append(_hint_row(day))
    rows.append(_mapping_row(day))
    return rows, found


def _region_rows(day, found: dict) -> list[VerifyRow]:
    placement, todos = [], []
    declared = {ex.id: ex for ex in day.exercises}
    for ex_id, ex in declared.items():
        region = found.get(ex_id)
        if region is None:
            placement.append(f"{ex_id} has no region: mark it in {ex.file} with "
                             f"'# BEGIN SOLUTION {ex_id}' ... '# END SCAFFOLD {ex_id}'")
            continue
        where = f"{region.file}:{region.start_line}"
        if getattr(ex, "file", None) and Path(region.file).as_posix() != Path(ex.file).as_posix():
            placement.append(f"{ex_id}'s region is in {where} but course.toml says {ex.file}")
        if region.scaffold_text.strip() == region.solution_text.strip():
            placement.append(f"{ex_id}'s scaffold ({where}) is the same as its solution")
        if getattr(ex, "kind", "todo") == "todo" and f"TODO({ex_id})" not in region.scaffold_text:
            todos.append(f"{ex_id}'s scaffold ({where}) does not say TODO({ex_id}): add it to the stub")
    for extra in sorted(set(found) - set(declared)):
        r = found[extra]
        placement.append(f"region {extra} at {r.file}:{r.start_line} is not an exercise point in "
                         "course.toml: declare it or remove its markers")
    n = len(declared)
    return [VerifyRow(day.id, "one region per exercise point", not placement,
                      "; ".join(placement) or f"{n} points, {n} regions"),
            VerifyRow(day.id, "TODO stubs say TODO(En)", not todos, "; ".join(todos))]


def _checks(day) -> list:
    return [*day.checks_core, *day.checks_bonus]


def _hint_row(day) -> VerifyRow:
    bare = [c.id for c in _checks(day) if not getattr(c, "hints", None)]
    detail = f"no hint for {', '.join(bare)}: add `hints = [...]` in course.toml" if bare else ""
    return VerifyRow(day.id, "every check has a hint", not bare, detail)


def _mapping_row(day) -> VerifyRow:
    declared = {ex.id for ex in day.exercises}
    problems = []
    for c in _checks(day):
        unknown = [e for e in c.exercises if e not in declared]
        if unknown:
            problems.append(f"{c.id} maps to unknown point(s) {', '.join(unknown)}")
    used = {e for c in _checks(day) for e in c.exercises}
    for ex_id in sorted(declared - used):
        problems.append(f"no check maps to {ex_id}: a student's work on it would go ungraded")
    return VerifyRow(day.id, "checks map to exercise points", not problems, "; ".join(problems))


def _statuses(result) -> dict[str, tuple[str, str]]:
    return {c.id: (c.status, getattr(c, "message", "") or "")
            for c in [*result.checks, *result.bonus]}


def _solution_row(day, result) -> VerifyRow:
    got = _statuses(result)
    bad = [f"{c.id} ({got.get(c.id, ('not reported', ''))[0]})" for c in _checks(day)
           if got.get(c.id, ("",))[0] != PASSED]
    core = len(day.checks_core)
    detail = (f"not passed: {', '.join(bad)} - fix the solution or the check" if bad
              else f"{core}/{core} core, bonus {len(day.checks_bonus)}/{len(day.checks_bonus)}")
    return VerifyRow(day.id, "solution passes every check", not bad, detail)


def _lab_row(day, result) -> VerifyRow:
    got = _statuses(result)
    core = day.checks_core
    passed = {c.id for c in core if got.get(c.id, ("",))[0] == PASSED}
    errored = [c.id for c in _checks(day) if got.get(c.id, ("",))[0] == "error"]
    expected = {c.id for c in core if not c.exercises}
    item = f"lab scores {day.scaffold_passes}/{len(core)}"
    notes = []
    if len(passed) != day.scaffold_passes:
        notes.append(f"the lab scores {len(passed)}/{len(core)} but scaffold_passes = {day.scaffold_passes}")
    for cid in sorted(passed - expected):
        maps = ", ".join(next(c.exercises for c in core if c.id == cid))
        notes.append(f"{cid} passes on the lab though it maps to {maps}: its scaffold does not break it")
    for cid in sorted(expected - passed):
        notes.append(f"{cid} fails on the lab though it maps to no exercise point")
    if errored:
        notes.append(f"check(s) errored (the check itself broke): {', '.join(errored)}")
    ok = len(passed) == day.scaffold_passes and not errored
    return VerifyRow(day.id, item, ok, "; ".join(notes))


def _revert_row(day, ex_id: str, result) -> VerifyRow:
    got = _statuses(result)
    checks = _checks(day)
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


def verify(course, day_ids=None, *, run_day=None, workers: int = 2) -> VerifyReport:
    """Verify the given days (ids, slugs, numbers or Day objects; default: all).
    run_day(course, day, lab) -> DayResult; default: grader.engine.run_day.
    Raises backups.UnknownDay for a day not in the course."""
    root = _root(course)
    days = [resolve_day(course, d) for d in day_ids] if day_ids else list(course.days)
    pool, run = _make_pool(run_day, course, days, workers)
    plan: list[tuple] = []     # (day, rows-or-None, label, future, tempdir)
    try:
        with pool:
            for day in days:
                plan += _submit_day(day, root, course, pool, run)
            report = VerifyReport()
            for day, rows, label, future, _ in plan:
                if rows is not None:
                    report.rows += rows
                    continue
                try:
                    report.rows.append(_judge(day, label, future.result()))
                except Exception as exc:  # the engine could not grade: report it, keep verifying
                    report.rows.append(_run_failed_row(day, label, f"grading run failed: "
                                                       f"{type(exc).__name__}: {exc}"))
    finally:   # temp trees go even on Ctrl+C
        for *_, tmp in plan:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
    return report


def _submit_day(day, root: Path, course, pool: Executor, run) -> list[tuple]:
    """The static rows of a day, then one submitted grading run per tree."""
    rows, found = _static_rows(day, root)
    plan = [(day, rows, None, None, None)]
    for label, build in _runs(day, root, found):
        tmp = Path(tempfile.mkdtemp(prefix=f"grader-verify-{day.id}-"))
        lab = tmp / Path(day.lab).name
        try:
            scaffold.write_tree(build(), lab)
        except (scaffold.ScaffoldError, OSError) as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            plan.append((day, [_run_failed_row(day, label, f"cannot build the tree: {exc}")], None, None, None))
            continue
        plan.append((day, None, label, pool.submit(run, course, day, lab), tmp))
    return plan


def _runs(day, root: Path, found: dict | None):
    """(label, tree builder) for every grading run of a day."""
    solution = Path(day.solution) if Path(day.solution).is_absolute() else root / day.solution
    lab = Path(day.lab) if Path(day.lab).is_absolute() else root / day.lab
    yield "solution", lambda: scaffold.build(solution, set())

    def committed_lab():
        if not lab.is_dir():
            raise scaffold.ScaffoldError(lab, None, "lab directory missing",
                                         f"generate it: python -m grader.scaffold {day.id}")
        return scaffold.read_tree(lab)
    yield "lab", committed_lab
    for ex in day.exercises:
        if found is not None and ex.id in found:
            yield f"revert {ex.id}", (lambda e=ex.id: scaffold.build(solution, {e}))
        else:
            yield f"revert {ex.id}", _cannot(ex.id)


def _cannot(ex_id: str):
    def build():
        raise scaffold.ScaffoldError("solution", None, f"no usable region for {ex_id}",
                                     "fix the region rows above first")
    return build


def _judge(day, label: str, result) -> VerifyRow:
    if label == "solution":
        return _solution_row(day, result)
    if label == "lab":
        return _lab_row(day, result)
    return _revert_row(day, label.removeprefix("revert "), result)


def _run_failed_row(day, label: str, detail: str) -> VerifyRow:
    item = {"solution": "solution passes every check",
            "lab": f"lab scores {day.scaffold_passes}/{len(day.checks_core)}"}.get(label, label)
    return VerifyRow(day.id, item, False, detail)
