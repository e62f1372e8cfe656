"""Run one day's checks through pytest, in process, and return a DayResult.

pytest gives the checks fixtures, assertion rewriting and skips; the grader keeps
the report to itself. The run is hermetic: an ini file of our own in a fresh run
root (so the kit's pyproject addopts/testpaths and any conftest above the checks
folder are not picked up), no cache provider, no plugin autoloading, pytest's
terminal output off, and every scratch directory under the run root, which is
removed at the end unless `keep`.

Before any student code runs, the engine copies the lab, the day's checks folder
and the sample workspace into the run root: nothing a lab does at run time can
change the lab itself, nor the inputs later checks get. While the checks run, the
grader's own current directory is the run root, so a child looking at its parent
finds no kit there. Then one child imports the lab's package with a short limit:
a lab that cannot start (a syntax error, an endless loop at import time) costs that
one limit, and every check reports the one cause. The same child then runs the
agent's entry point with `--help`: an agent that never answers (an endless loop in
`__main__`, before it reads its arguments) costs that one limit too, every check
that runs the agent reports it, and so does the report's first line.

A process that grades run after run (the watch's grading process) starts each run's
pytest session before the run is asked for (`run_day`'s `ready`): the lab is copied
and probed once the request came, inside a session whose start is already paid.

Every child of the run dies with it, however the run ends (grader/spawn/groups.py),
and the run root goes with it (grader/engine/runroot.py; a grader killed outright leaves
it to the next run, which removes it once nothing uses it).
"""

from __future__ import annotations

import dataclasses
import os
import platform
import secrets
import shutil
import sys
import time
from pathlib import Path
from typing import Mapping

import pytest

import grader
from grader.checkkit import provider
from grader.checkkit.context import CheckContext
from grader.checkkit.messages import Messages
from grader.course import Course, Day
from grader.engine import parallel, runroot
from grader.engine.inprocess import run_pytest
from grader.engine.plugin import GraderPlugin, Outcome, test_name_for
from grader.engine.probe import PROBE_FLOOR, PROBE_TIMEOUT, SLOW_IMPORT, Probe  # noqa: F401 (engine.PROBE_TIMEOUT: the limit a report names)
from grader.engine.signals import children_get_default_sigint, die_if_terminated, sigterm_interrupts
from grader.i18n import word
from grader.report.results import CheckResult, DayResult, Status
from grader.spawn import LabRunner, groups, hermetic
from grader.spawn.child import stop_all as stop_children
from grader.spawn.lab import python_dir

HERMETIC_VAR = "GRADER_HERMETIC"  # "0": lab children without a view of their own (the weaker mode)


def hermetic_children() -> bool:
    """Lab children in a view of their own where bwrap can make one (grader/spawn/hermetic.py),
    unless $GRADER_HERMETIC is 0."""
    return os.environ.get(HERMETIC_VAR, "").strip() not in ("0", "no", "off", "false")


class EngineError(Exception):
    """The checks could not be run at all (an infrastructure problem, exit status 2)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the children were stopped and the scratch directories removed
    (unless kept: `kept` is then their root). Nothing outside the run root was written."""

    def __init__(self, kept: str | None = None):
        super().__init__()
        self.kept = kept


def environment() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(), "grader": grader.__version__}


def new_seed() -> int:
    return secrets.randbelow(2**32)


def check_lab(day: Day, lab: Path) -> Path:
    """The lab directory, resolved; an EngineError naming the fix if it is unusable."""
    lab = Path(lab).expanduser().resolve()
    if lab == Path(day.lab).resolve():
        fix = word("engine.fix_own_lab", day=day.id)
    else:
        fix = word("engine.fix_other_lab", lab=day.lab)
    if lab.is_file():
        raise EngineError(word("engine.lab_is_file", lab=lab, fix=fix))
    if not lab.is_dir():
        raise EngineError(word("engine.no_lab", lab=lab, fix=fix))
    return lab


def not_a_lab(course: Course, day: Day, lab: Path) -> str | None:
    """What makes an existing directory not a lab of `day`: no agent package, or a missing
    exercise file. None when it looks like one (whether its code works is for the checks)."""
    lab = Path(lab)
    package = course.agent.package
    if not (lab / package).is_dir():
        return word("engine.no_package", lab=lab, package=package)
    if not any((lab / package / name).is_file() for name in ("__init__.py", "__main__.py")):
        return word("engine.empty_package", lab=lab, package=package)
    missing: dict[str, list[str]] = {}
    for exercise in day.exercises:
        if not (lab / exercise.file).is_file():
            missing.setdefault(exercise.file, []).append(exercise.id)
    if missing:
        file, ids = next(iter(missing.items()))
        if len(missing) > 1:
            return word("engine.no_files", lab=lab, file=file, ids=", ".join(ids), more=len(missing) - 1)
        return word("engine.no_file", lab=lab, file=file, ids=", ".join(ids))
    return None


def check_selection(day: Day, select) -> set[str] | None:
    if not select:
        return None
    known = {c.id for c in day.all_checks}
    unknown = [s for s in select if s not in known]
    if unknown:
        raise EngineError(word("engine.unknown_check", day=day.id, check=unknown[0],
                               known=", ".join(c.id for c in day.all_checks)))
    return set(select)


def run_day(course: Course, day: Day, lab: Path, *, keep: bool = False, select=None, seed: int | None = None,
            hint_levels: Mapping[str, int] | None = None, on_check=None, jobs: int | None = None,
            on_wait=None, ready=None) -> DayResult | None:
    """Run `day`'s checks against `lab`; results come back in course.toml order.

    `hint_levels` gives, per check id, the hint level a failing check shows (default 1).
    `on_check(check_id, status)` is called as each check finishes, in the contract's order
    (the CLI's live lines). `jobs` checks run at once (default: the cores, less those the
    machine is already busy with, `parallel.default_jobs`; 1: one after another;
    grader/engine/parallel.py); the results are the same. `on_wait(package, seconds)` is called
    once if the lab's package is still importing after SLOW_IMPORT s (the CLI's "importing
    mca ..." line): the grader waits up to `seconds` for it.
    `ready`: start the run before it is asked for (a process that grades run after run, the
    watch's): the run root, the copy of the checks and pytest's session up to the collected
    checks are made first, then `ready()` is called and returns the run's (select, seed,
    hint_levels, on_check), or None for no run at all (run_day then returns None). Only then
    is the lab copied and its probe started, so a run pays none of pytest's start.
    Ctrl-C raises `Interrupted`.
    """
    from grader.course.manifest import mistyped_path

    module = day.checks_module
    if not module.is_file():
        wrong = mistyped_path(course, day, "checks_dir")
        if wrong:
            raise EngineError(wrong + ".")
        raise EngineError(word("engine.no_checks", day=day.id, module=module))
    if Path(lab).expanduser().resolve() == Path(day.lab).resolve():
        wrong = mistyped_path(course, day, "lab")
        if wrong:
            raise EngineError(wrong + ".")
    lab = check_lab(day, lab)
    selected = check_selection(day, select) if ready is None else None
    runroot.sweep()  # the run roots of gradings that were killed outright, once nothing uses them
    root = runroot.RunRoot()  # a name like any other program's temporary directory
    run_root = root.path
    started = time.perf_counter()
    terminated: list = []
    probe = context = None
    begun = False
    try:
        with children_get_default_sigint(), sigterm_interrupts(terminated):
            fixtures = _copy(day.checks_dir, run_root / "fixtures", word("engine.the_checks"), ("__pycache__", "*.pyc"))
            plugin = GraderPlugin(None, day=day, jobs=parallel.default_jobs() if jobs is None else max(1, jobs))

            def begin() -> bool:
                nonlocal probe, context, seed, selected, hint_levels, on_check, started, begun
                if ready is not None:
                    asked = ready()
                    if asked is None:
                        return False
                    select_now, seed, hint_levels, on_check = asked
                    started = time.perf_counter()
                    check_lab(day, lab)
                    selected = check_selection(day, select_now)
                begun = True
                seed = new_seed() if seed is None else seed
                context = _context(course, day, lab, run_root, seed, keep, fixtures)
                probe = Probe(context, on_wait)
                plugin.context, plugin.select, plugin.before_checks = context, selected, probe.verdict
                if on_check:
                    plugin.on_done = lambda check_id, outcome: on_check(check_id, outcome.status)
                return True

            try:
                if ready is None:
                    begin()   # the lab imports in the probe's child while pytest starts
                else:
                    plugin.begin = begin
                # The copy taken before any student code ran, not the kit's file.
                exit_code, output = run_pytest(fixtures / module.name, run_root, plugin)
                if plugin.begun_error is not None:
                    raise plugin.begun_error
                if not begun:   # no run was asked for (or pytest failed before it could be)
                    _raise_for(plugin, exit_code, output, day, module)
                    return None
                blocked = probe.verdict()
                _raise_for(plugin, exit_code, output, day, module)
            finally:
                if probe is not None:
                    probe.stop()
            if blocked is None:
                outcomes = plugin.outcomes
            else:
                skipped = context.say("lab.skipped")
                outcomes = {c.id: Outcome(Status.SKIPPED, skipped) for c in day.all_checks}
    except KeyboardInterrupt:
        raise Interrupted(str(run_root) if keep else None) from None
    finally:
        stop_children()         # what a check that raised left running
        groups.sweep_orphans()  # a grading process's adopted orphans (grader/spawn/groups.py)
        root.release(remove=not keep)
        die_if_terminated(terminated)
    core, bonus = [], []
    for check in day.all_checks:
        if selected is not None and check.id not in selected:
            continue
        result = _result(check, outcomes.get(check.id), (hint_levels or {}).get(check.id, 1), module)
        (bonus if check.bonus else core).append(result)
    core, bonus = _point_to_causes(core, day), _point_to_causes(bonus, day, core)
    cause = None if blocked else (probe.silent or _never_finished(context, outcomes.values()))
    return DayResult(day_id=day.id, title=day.title, lab=str(lab), checks=tuple(core), bonus=tuple(bonus),
                     environment=environment(), duration=round(time.perf_counter() - started, 3),
                     run_root=str(run_root) if keep else None, seed=seed, blocked=blocked, cause=cause)


def _never_finished(context: CheckContext, outcomes) -> str | None:
    """The run-wide cause when the agent started several times and never once finished by
    itself: each run outlived its time limit or was let go by its check (which waited for it
    in vain), and at least one timed out."""
    outcomes = list(outcomes)
    runs = sum(o.agent_runs for o in outcomes)
    if runs >= 2 and sum(o.agent_finished for o in outcomes) == 0 and sum(o.agent_timeouts for o in outcomes):
        return context.say("lab.never_finished", runs=runs)
    return None


# What a student may have in a lab dir that grading neither needs nor should copy.
_NOT_GRADED = ("__pycache__", "*.pyc", ".grader", ".git", ".venv", "venv")


def _copy(source: Path, dest: Path, what: str, ignore=()) -> Path:
    try:
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns(*ignore), symlinks=True)
    except (OSError, shutil.Error) as exc:
        raise EngineError(word("engine.could_not_copy", what=what, source=source, error=exc)) from None
    return dest


def _context(course: Course, day: Day, lab: Path, run_root: Path, seed: int, keep: bool,
             fixtures: Path | None = None) -> CheckContext:
    """The run root holds the grader's own files (the copy of the checks, pytest's) and
    `work/`, the only part a lab child is given: the graded copy, the sample workspace,
    the `python` links and every check's scratch dirs. In a hermetic run a child sees
    `work/` alone (grader/spawn/hermetic.py)."""
    scratch = run_root / "work"
    scratch.mkdir()
    graded = _copy(lab, scratch / "lab", word("engine.the_lab"), (*_NOT_GRADED, *course.agent.runtime_dirs))
    if fixtures is None:  # else copied before (run_day copies the checks before pytest starts)
        fixtures = _copy(day.checks_dir, run_root / "fixtures", word("engine.the_checks"), ("__pycache__", "*.pyc"))
    sample = None
    if course.workspace is not None:
        sample = _copy(course.workspace, scratch / "sample-workspace", word("engine.the_workspace"),
                       ("__pycache__", "*.pyc"))
    kit = [Path(course.root).resolve()]
    if sys.prefix != sys.base_prefix:  # the kit's virtualenv, wherever it lives
        kit.append(Path(sys.prefix).resolve())
    runner = LabRunner(lab=graded, agent=course.agent, shown_lab=lab, scratch_copy=True,
                       kit_paths=tuple(kit))
    runner.python_bin = python_dir(scratch / "bin", runner.python)
    if hermetic_children():
        found = hermetic.find(runner.python)
        runner.hermetic = found if found.bwrap else None
        runner.writable = (scratch,)
        runner.paths = hermetic.view_of(scratch, runner.env().get("HOME"))
        # In the view the agent runs as `python -m` does for a person, without -I: the
        # PYTHONDONTWRITEBYTECODE its own children are given applies to it too, so it writes no
        # bytecode. The import probe (-I: it ignores that variable) does, for every module it
        # imports, into this copy, before any check runs (grader/engine/probe.py): the agent's
        # children start from compiled code, and the compiling happens in the probe's child,
        # on another core, not in the grader before the probe can start.
    provider.draw(seed)  # the fake model's name and key for this run: a lab cannot know them beforehand
    return CheckContext(lab=graded, day=day, course=course, fixtures=fixtures, sample=sample, keep=keep,
                        run_root=scratch, seed=seed, runner=runner, say=Messages.for_day(fixtures))


def _raise_for(plugin: GraderPlugin, exit_code, output: str, day: Day, module: Path) -> None:
    if plugin.collect_errors:
        raise EngineError(word("engine.not_loaded", module=module) + "\n" + _tail(plugin.collect_errors[0], 12))
    if plugin.unknown_tests:
        raise EngineError(word("engine.unlisted", module=module, tests=", ".join(plugin.unknown_tests), day=day.id))
    if exit_code == pytest.ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    if exit_code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
        raise EngineError(word("engine.pytest_failed", module=module, code=int(exit_code)) + "\n" + _tail(output, 12))


def _result(check, outcome: Outcome | None, level: int, module: Path) -> CheckResult:
    if outcome is None:
        outcome = Outcome(Status.ERROR, word("engine.not_implemented", module=module.name,
                                             test=test_name_for(check.id)))
    shown = min(max(level, 1), len(check.hints)) if outcome.status is not Status.PASSED else 0
    return CheckResult(id=check.id, title=check.title, status=outcome.status, message=outcome.message,
                       expected=outcome.expected, seen=outcome.seen,
                       hint=check.hints[shown - 1] if shown else None, hint_level=shown,
                       hint_levels=len(check.hints), duration=outcome.duration, repro=outcome.repro,
                       bonus=check.bonus, exercises=check.exercises)


def _point_to_causes(results: list[CheckResult], day: Day, others: list[CheckResult] = ()) -> list[CheckResult]:
    """Name, in each failed check that also rests on other exercise points (`depends`),
    the failing core checks of those points: a mistake in provided-code territory shows
    up in several checks, and the student should start with the one that names it.
    Two checks that each rest on the other's point name nothing: neither comes first."""
    checks = {c.id: c for c in day.all_checks}
    failing = [r for r in (*others, *results) if r.status is Status.FAILED and not r.bonus]

    def rests_on(check_id: str) -> set[str]:
        return set(checks[check_id].depends) if check_id in checks else set()

    out = []
    for result in results:
        mine = set(result.exercises)
        causes = tuple(r.id for r in failing if r.id != result.id and rests_on(result.id) & set(r.exercises)
                       and not set(r.exercises) & mine and not rests_on(r.id) & mine)
        if result.status in (Status.FAILED, Status.ERROR, Status.TIMEOUT) and causes:
            result = dataclasses.replace(result, see_first=causes)
        out.append(result)
    return out


def _tail(text: str, n: int) -> str:
    return "\n".join(text.strip().splitlines()[-n:])
