"""Run one day's checks module through pytest, in process, and return a DayResult.

pytest gives the checks fixtures, assertion rewriting and skips; the grader keeps
the report to itself. The run is hermetic: an ini file of our own in a fresh run
root (so the kit's pyproject addopts/testpaths and any conftest above the checks
directory are not picked up), no cache provider, no plugin autoloading, pytest's
terminal output off, and every scratch directory under the run root, which is
removed at the end unless `keep`. The checks see a copy of the lab in the run root, so
nothing a student's code does while it runs can change the lab itself, nor the cwd.
They also see a copy of the day's fixtures, taken before any student code runs: a
lab's code runs as the same user and can find the grader's files, but what it writes
there cannot change the logs and workspaces the later checks of this run are given
(`grader check --ci` reports such a write as tamper, see cli.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import shlex
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import grader
from grader import spawn
from grader.course import Course, Day
from grader.plugin import CheckContext, GraderPlugin, test_name_for
from grader.results import CheckResult, DayResult

# Environment variables that would let the caller's pytest setup leak into grading.
_PYTEST_ENV = {"PYTEST_ADDOPTS": None, "PYTEST_PLUGINS": None, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


class EngineError(Exception):
    """The checks could not be run at all (an infrastructure problem, exit status 2)."""


def environment() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(),
            "grader": grader.__version__}


def check_lab(day: Day, lab: Path) -> Path:
    """The lab directory, resolved; an EngineError naming the fix if it is unusable."""
    lab = Path(lab).expanduser().resolve()
    if lab == day.lab.resolve():
        fix = f"`grader reset {day.id}` regenerates it (and backs up whatever is there)."
    else:
        fix = f"check the path given with --lab (the day's own lab is {day.lab})."
    if lab.is_file():
        raise EngineError(f"the lab {lab} is a file, not a directory: {fix}")
    if not lab.is_dir():
        raise EngineError(f"the lab directory {lab} does not exist: {fix}")
    return lab


def check_selection(day: Day, select) -> set[str] | None:
    if not select:
        return None
    known = {c.id for c in day.all_checks}
    unknown = [s for s in select if s not in known]
    if unknown:
        raise EngineError(f"{day.id} has no check {unknown[0]!r}. Its checks are: "
                          + ", ".join(c.id for c in day.all_checks))
    return set(select)


def run_day(course: Course, day: Day, lab: Path, *, keep: bool = False, select=None) -> DayResult:
    """Run `day`'s checks against `lab`; results come back in course.toml order."""
    if not day.checks.is_file():
        raise EngineError(f"checks for {day.id} are not available yet ({day.checks} is missing).")
    lab = check_lab(day, lab)
    selected = check_selection(day, select)
    run_root = Path(tempfile.mkdtemp(prefix=f"grader-{day.id}-")).resolve()
    graded = _copy_lab(lab, run_root / "lab")
    fixtures = _copy_fixtures(day.checks.parent / day.checks.stem, run_root / "fixtures")
    context = CheckContext(lab=graded, day=day, course=course, fixtures=fixtures, keep=keep, run_root=run_root)
    plugin = GraderPlugin(context, selected)
    started = time.perf_counter()
    spawn.share_bytecode(run_root / "pycache")
    try:
        exit_code, output = _run_pytest(day.checks, run_root, plugin)
    finally:
        spawn.share_bytecode(None)
        if not keep:
            shutil.rmtree(run_root, ignore_errors=True)
    if plugin.collect_errors:
        raise EngineError(f"the checks module {day.checks} could not be loaded:\n"
                          + _tail(plugin.collect_errors[0], 12))
    if plugin.unknown_tests:
        raise EngineError(f"{day.checks} defines {', '.join(plugin.unknown_tests)}, which course.toml does "
                          f"not list for {day.id}. Fix: add a [[days.checks]] entry for it, or rename it "
                          f"test_<check id with - as _>.")
    if exit_code in (pytest.ExitCode.INTERRUPTED,):
        raise KeyboardInterrupt
    if exit_code in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR):
        raise EngineError(f"pytest could not run {day.checks} (exit {int(exit_code)}):\n{_tail(output, 12)}")
    return _day_result(day, lab, graded, plugin, selected, time.perf_counter() - started,
                       str(run_root) if keep else None)


# What a student may have in a lab dir that grading neither needs nor should copy.
_NOT_GRADED = shutil.ignore_patterns("__pycache__", "*.pyc", ".sessions", ".grader", ".git", ".venv", "venv")


def _copy_lab(lab: Path, dest: Path) -> Path:
    """Grade a copy, so nothing the student's code does at run time can change the lab itself."""
    try:
        shutil.copytree(lab, dest, ignore=_NOT_GRADED, symlinks=True)
    except (OSError, shutil.Error) as exc:
        raise EngineError(f"could not copy the lab {lab} for grading: {exc}") from None
    return dest


def _copy_fixtures(source: Path, dest: Path) -> Path:
    """The fixtures as they are now, before any student code runs (a day may have none)."""
    if not source.is_dir():
        return source
    try:
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    except (OSError, shutil.Error) as exc:
        raise EngineError(f"could not copy the fixtures {source} for grading: {exc}") from None
    return dest


def _run_pytest(module: Path, run_root: Path, plugin: GraderPlugin) -> tuple[int, str]:
    ini = run_root / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    args = [str(module), "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:stepwise",
            "--import-mode=importlib", "-c", str(ini), "--rootdir", str(run_root),
            "--confcutdir", str(module.parent), "--basetemp", str(run_root / "pytest"),
            "-o", "addopts=", "-o", "python_functions=test_*"]
    saved = {key: os.environ.get(key) for key in _PYTEST_ENV}
    sink = io.StringIO()
    try:
        for key, value in _PYTEST_ENV.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exit_code = pytest.main(args, plugins=[plugin])
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return exit_code, sink.getvalue()


def _day_result(day: Day, lab: Path, graded: Path, plugin: GraderPlugin, selected, duration: float,
                run_root: str | None) -> DayResult:
    core, bonus = [], []
    for check in day.all_checks:
        if selected is not None and check.id not in selected:
            continue
        result = plugin.results.get(check.id) or CheckResult(
            id=check.id, title=check.title, status="error", bonus=check.bonus, exercises=check.exercises,
            message=f"check not implemented: {day.checks.name} has no {test_name_for(check.id)}()")
        if not result.passed:
            result.hint = check.hints[0]
        # The children ran the copy; a reproduce line should run the student's own lab,
        # so that after a fix the same line shows whether it worked.
        result.repro = tuple(line.replace(f"PYTHONPATH={graded}", f"PYTHONPATH={shlex.quote(str(lab))}")
                             for line in result.repro or ())
        (bonus if check.bonus else core).append(result)
    return DayResult(day_id=day.id, title=day.title, lab=str(lab), checks=core, bonus=bonus,
                     environment=environment(), duration=round(duration, 3), run_root=run_root)


def _tail(text: str, n: int) -> str:
    return "\n".join(text.strip().splitlines()[-n:])
