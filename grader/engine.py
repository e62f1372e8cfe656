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
one limit, and every check reports the one cause. Beside it another child runs the
agent's entry point with `--help`: an agent that never answers (an endless loop in
`__main__`, before it reads its arguments) costs that one limit too, every check
that runs the agent reports it, and so does the report's first line.

Every child of the run dies with it, however the run ends (grader/spawn/groups.py),
and the run root goes with it (grader/runroot.py; a grader killed outright leaves
it to the next run, which removes it once nothing uses it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import platform
import secrets
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Mapping

import pytest

import grader
from grader import parallel, runroot
from grader.checkkit.context import CheckContext
from grader.checkkit.messages import Messages
from grader.course import Course, Day
from grader.i18n import word
from grader.plugin import GraderPlugin, Outcome, test_name_for
from grader.results import CheckResult, DayResult, Status
from grader.spawn import ChildTimeout, LabRunner, groups, hermetic, scaled
from grader.spawn.child import stop_all as stop_children
from grader.spawn.lab import python_dir

HERMETIC_VAR = "GRADER_HERMETIC"  # "0": lab children without a view of their own (the weaker mode)


def hermetic_children() -> bool:
    """Lab children in a view of their own where bwrap can make one (grader/spawn/hermetic.py),
    unless $GRADER_HERMETIC is 0."""
    return os.environ.get(HERMETIC_VAR, "").strip() not in ("0", "no", "off", "false")

PROBE_TIMEOUT = 20  # seconds for importing (and compiling) the lab's package: a healthy lab needs a
                    # fraction of one, a machine loaded tenfold a few (seen: over 10 s at load 25 on 2 cores)
SLOW_IMPORT = 2     # seconds of importing after which `on_wait` says what the grader is waiting for
PROBE_FLOOR = 5     # ... never scaled below this: a loaded machine compiling a lab can take a second or two

# Environment variables that would let the caller's pytest setup leak into grading.
_PYTEST_ENV = {"PYTEST_ADDOPTS": None, "PYTEST_PLUGINS": None, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


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
            on_wait=None) -> DayResult:
    """Run `day`'s checks against `lab`; results come back in course.toml order.

    `hint_levels` gives, per check id, the hint level a failing check shows (default 1).
    `on_check(check_id, status)` is called as each check finishes, in the contract's order
    (the CLI's live lines). `jobs` checks run at once (default: the cores, less those the
    machine is already busy with, `parallel.default_jobs`; 1: one after another;
    grader/parallel.py); the results are the same. `on_wait(package, seconds)` is called once
    if the lab's package is still importing after SLOW_IMPORT s (the CLI's "importing mca ..."
    line): the grader waits up to `seconds` for it.
    Ctrl-C raises `Interrupted`.
    """
    from grader.manifest import mistyped_path

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
    selected = check_selection(day, select)
    seed = new_seed() if seed is None else seed
    runroot.sweep()  # the run roots of gradings that were killed outright, once nothing uses them
    root = runroot.RunRoot()  # a name like any other program's temporary directory
    run_root = root.path
    started = time.perf_counter()
    terminated: list = []
    try:
        with children_get_default_sigint(), sigterm_interrupts(terminated):
            context = _context(course, day, lab, run_root, seed, keep)
            probe = Probe(context, on_wait)
            try:
                done = (lambda check_id, outcome: on_check(check_id, outcome.status)) if on_check else None
                plugin = GraderPlugin(context, selected, on_done=done, jobs=parallel.default_jobs() if jobs is None else max(1, jobs),
                                      before_checks=probe.verdict)
                # The copy taken before any student code ran, not the kit's file.
                exit_code, output = _run_pytest(context.fixtures / module.name, run_root, plugin)
                blocked = probe.verdict()
                _raise_for(plugin, exit_code, output, day, module)
            finally:
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


def _context(course: Course, day: Day, lab: Path, run_root: Path, seed: int, keep: bool) -> CheckContext:
    """The run root holds the grader's own files (the copy of the checks, pytest's) and
    `work/`, the only part a lab child is given: the graded copy, the sample workspace,
    the `python` links and every check's scratch dirs. In a hermetic run a child sees
    `work/` alone (grader/spawn/hermetic.py)."""
    scratch = run_root / "work"
    scratch.mkdir()
    graded = _copy(lab, scratch / "lab", word("engine.the_lab"), (*_NOT_GRADED, *course.agent.runtime_dirs))
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
    return CheckContext(lab=graded, day=day, course=course, fixtures=fixtures, sample=sample, keep=keep,
                        run_root=scratch, seed=seed, runner=runner, say=Messages.for_day(fixtures))


@contextlib.contextmanager
def sigterm_interrupts(terminated: list):
    """SIGTERM (a CI job cancelled, `kill`, a batch's stop) stops a run as Ctrl-C does: the
    children are killed and the run root removed; then (`die_if_terminated`) the grader dies
    of the SIGTERM as it would have without this, so whoever sent it sees the usual status.
    Left alone when SIGTERM is ignored (a grader under nohup) or handled by whoever runs the grader."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(number, frame):
        terminated.append(number)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def die_if_terminated(terminated: list) -> None:
    if terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def children_get_default_sigint():
    """A grader started with SIGINT ignored (a script's background job, nohup) would hand the
    ignore on to every child it starts, and a check that presses Ctrl-C in the lab's REPL would
    see nothing happen. For the run, a handler that does nothing replaces the ignore: the grader
    still ignores Ctrl-C, and a child (exec resets handlers, not ignores) gets the default."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, lambda number, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _finished_within(child, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while child.running() and time.monotonic() < deadline:
        time.sleep(0.02)
    return not child.running()


class Probe:
    """The import probe: does the lab's package import at all? Started before pytest, so
    the lab imports while pytest starts and collects the checks (on two cores, both at
    once); its verdict is taken before the first check runs (`before_checks`), and a lab
    that cannot start runs no check at all.

    Beside it, the agent's entry point runs once with `--help` (the answer, or its exit
    status, does not matter: only whether it finishes). One that does not finish within
    the limit is an agent that never answers: `silent` says so, and every check that runs
    the agent reports that cause at once instead of waiting out its own limit."""

    _UNSET = object()

    def __init__(self, context: CheckContext, on_wait=None):
        self.context = context
        self.on_wait = on_wait
        self.timeout = max(scaled(PROBE_TIMEOUT), PROBE_FLOOR)
        self.started = time.monotonic()
        self.child = context.runner.start_probe(cwd=context.tmp("import-probe"))
        self.help = None
        self.silent: str | None = None
        try:
            self.help = context.runner.start_agent("--help", cwd=context.tmp("help-probe"))
            self.help.close_stdin()
        except BaseException:
            self.stop()
            raise
        self._verdict = self._UNSET

    def verdict(self) -> str | None:
        """None if the lab's package imports; else the one-line reason every check will give.
        Taken once; an agent that does not answer `--help` is told to the checks then."""
        if self._verdict is self._UNSET:
            self._verdict = self._judge()
            if self._verdict is None:
                self.silent = self._answers()
                self.context.silent = self.silent
        return self._verdict

    def _answers(self) -> str | None:
        """None if `python -m <agent> --help` finished within the limit, else the cause."""
        say, package = self.context.say, self.context.course.agent.package
        left = self.timeout - (time.monotonic() - self.started)
        try:
            self.help.wait(max(left, 0.0), exact=True)
        except ChildTimeout as exc:
            survivors = exc.result.survivors
            if survivors:
                return say("lab.silent_alive", package=package, seconds=self.timeout,
                           pids=", ".join(map(str, survivors)))
            return say("lab.silent", package=package, seconds=self.timeout)
        finally:
            self.context.take_children()
        return None

    def _judge(self) -> str | None:
        say, package = self.context.say, self.context.course.agent.package
        if self.on_wait is not None and self.timeout > SLOW_IMPORT:
            if not _finished_within(self.child, SLOW_IMPORT - (time.monotonic() - self.started)):
                self.on_wait(self.context.course.agent.package, round(self.timeout))
        left = self.timeout - (time.monotonic() - self.started)
        try:
            result = self.child.wait(max(left, 0.0), exact=True)
        except ChildTimeout:
            return say("lab.cannot_start", package=package, why=say("lab.timed_out", seconds=self.timeout))
        finally:
            self.context.take_children()
        if result.returncode == 0 and "imported" in result.stdout:
            return None
        return say("lab.cannot_start", package=package, why=say("lab.crashed", evidence=self.context.evidence(result)))

    def stop(self) -> None:
        """Kill the probes if nobody waited for them (pytest stopped first, Ctrl-C)."""
        self.child.__exit__(None, None, None)
        if self.help is not None:
            self.help.__exit__(None, None, None)


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


@contextlib.contextmanager
def _hermetic(run_root: Path):
    """No caller's pytest settings, and the grader's cwd in the run root, for the duration."""
    saved = {key: os.environ.get(key) for key in _PYTEST_ENV}
    cwd = os.getcwd()
    try:
        for key, value in _PYTEST_ENV.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        os.chdir(run_root)
        yield
    finally:
        os.chdir(cwd)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _run_pytest(module: Path, run_root: Path, plugin: GraderPlugin) -> tuple[int, str]:
    ini = run_root / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    args = [str(module), "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:stepwise",
            "--import-mode=importlib", "-c", str(ini), "--rootdir", str(run_root),
            "--confcutdir", str(module.parent), "--basetemp", str(run_root / "pytest"),
            "-o", "addopts=", "-o", "python_functions=test_*"]
    sink = io.StringIO()
    try:
        with _hermetic(run_root), contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exit_code = pytest.main(args, plugins=[plugin])
    finally:
        _forget_modules(run_root)
    return exit_code, sink.getvalue()


def _forget_modules(run_root: Path) -> None:
    """Drop the checks modules this run imported: every day's folder is copied as `fixtures`
    with a `checks.py`, and the next run in this process (verify, the kit's tests) must
    import its own, not this one (pytest may also have made an empty `fixtures` package)."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if name == "fixtures" or name.startswith("fixtures.") or (
                file and Path(file).resolve().is_relative_to(run_root)):
            del sys.modules[name]


def _tail(text: str, n: int) -> str:
    return "\n".join(text.strip().splitlines()[-n:])
