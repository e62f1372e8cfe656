"""The pytest plugin the engine runs a day's checks module with.

It provides the `ctx` fixture, maps each test `test_<id with - as _>` to a check
id from course.toml, and turns every outcome into an `Outcome`:

    CheckFailed / AssertionError / pytest.fail  -> failed (message, expected, seen)
    ChildTimeout                                 -> timeout
    AgentSilent (the agent never answers)        -> timeout, with that one cause
    pytest.skip                                  -> skipped
    anything else                                -> error (the check itself broke)

The same mapping applies to an exception raised while preparing a shared
fixture (pytest re-raises it for every check that uses it), with the message
saying it happened in the shared setup. The engine turns outcomes into the
frozen CheckResults of the report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from grader.checkkit.chain import forget_refusals, refusal_note
from grader.checkkit.context import AgentSilent, CheckContext
from grader.checkkit.failures import CheckFailed, short
from grader.engine import parallel
from grader.i18n import word
from grader.report.results import Status
from grader.spawn import ChildTimeout


def test_name_for(check_id: str) -> str:
    return "test_" + check_id.replace("-", "_")


@dataclass
class Outcome:
    """What one check came to, before the engine dresses it as a CheckResult."""

    status: Status = Status.PASSED
    message: str = ""
    expected: str | None = None
    seen: str | None = None
    duration: float = 0.0
    repro: tuple[str, ...] = field(default_factory=tuple)
    agent_runs: int = 0        # children that ran the agent's entry point (not harnesses) ...
    agent_finished: int = 0    # ... those of them that ended by themselves (not killed by the grader) ...
    agent_timeouts: int = 0    # ... and those that outlived their time limit


def _first_lines(text: str, n: int = 6) -> str:
    lines = text.strip().splitlines()
    return "\n".join(lines[:n]) + ("\n..." if len(lines) > n else "")


def _where(excinfo) -> str:
    """`file.py:LINE` of the innermost frame, to help whoever fixes the check."""
    try:
        entry = excinfo.traceback[-1]
        return f" ({Path(str(entry.path)).name}:{entry.lineno + 1})"
    except Exception:
        return ""


def classify(excinfo, when: str) -> dict:
    """Turn one phase's exception into status, message, expected, seen."""
    exc = excinfo.value
    prefix = "" if when == "call" else word("engine.in_setup" if when == "setup" else "engine.in_teardown")
    if isinstance(exc, AgentSilent):  # the run's one cause, the same words in every check
        return {"status": Status.TIMEOUT, "message": str(exc)}
    if isinstance(exc, pytest.skip.Exception):
        return {"status": Status.SKIPPED, "message": prefix + (exc.msg or word("engine.skipped"))}
    if isinstance(exc, ChildTimeout):
        tail = exc.result.stderr_tail(3).strip()
        return {"status": Status.TIMEOUT, "message": prefix + str(exc), "seen": short(tail) if tail else None}
    if isinstance(exc, CheckFailed):
        return {"status": Status.FAILED, "message": prefix + exc.message, "expected": exc.expected, "seen": exc.seen}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        text = getattr(exc, "msg", None) or str(exc) or word("engine.assertion_failed")
        if "\nassert " in text:  # `assert x, "message"`: the message is for the student,
            text = text.split("\nassert ", 1)[0]  # pytest's introspection is not
        return {"status": Status.FAILED, "message": prefix + _first_lines(text)}
    described = f"{type(exc).__name__}: {short(str(exc), 200)}" if str(exc) else type(exc).__name__
    return {"status": Status.ERROR, "message": prefix + word("engine.broke", error=described, where=_where(excinfo))}


class GraderPlugin:
    """Registered with pytest.main(plugins=[...]); collects one Outcome per check id."""

    def __init__(self, context: CheckContext | None, select: set[str] | None = None, on_done=None, jobs: int = 1,
                 before_checks=None, day=None, begin=None):
        self.context = context    # None until `begin` has made it
        self.before_checks = before_checks  # called once before the first check: a reason to run none, or None
        # `begin()`, if given, is called once the checks are collected, before anything else in the
        # run: it sets context, select, on_done and before_checks, and returns False for no run at all
        # (what it raises is kept in `begun_error`, and the session ends without running a check)
        self.begin = begin
        self.begun_error: BaseException | None = None
        self.select = select
        self.on_done = on_done    # on_done(check_id, Outcome) once each check's last item ran
        self.jobs = jobs          # checks run at once (grader/engine/parallel.py); 1: one after another
        self._report = None       # with jobs > 1: the on_done the workers report through
        self.by_test = {test_name_for(c.id): c for c in (day or context.day).all_checks}
        self.collect_errors: list[str] = []
        self.unknown_tests: list[str] = []
        self.outcomes: dict[str, Outcome] = {}
        self._current: dict[str, Outcome] = {}
        self._left: dict[str, int] = {}          # items still to run, per check id
        self._own: list = []                     # children the running item started itself
        self._by_fixture: dict[str, list] = {}   # children started while a shared fixture was set up
        self._made: list = []                    # ... of them, those set up for the running item

    @pytest.fixture(scope="session")
    def ctx(self) -> CheckContext:
        return self.context

    # -- collection ------------------------------------------------------------------

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.collect_errors.append(str(report.longrepr))

    def pytest_collection_modifyitems(self, session, config, items) -> None:
        keep, drop = [], []
        for item in items:
            name = getattr(item, "originalname", None) or item.name
            check = self.by_test.get(name)
            if check is None:
                if name not in self.unknown_tests:
                    self.unknown_tests.append(name)
                drop.append(item)
            elif self.select is not None and check.id not in self.select:
                drop.append(item)
            else:
                keep.append(item)
        if self.unknown_tests:  # refuse to grade with a module that disagrees with the manifest
            drop, keep = items[:], []
        if drop:
            config.hook.pytest_deselected(items=drop)
        items[:] = keep
        self._count(keep)

    def _count(self, items) -> None:
        self._left = {}
        for item in items:
            check_id = self.by_test[getattr(item, "originalname", None) or item.name].id
            self._left[check_id] = self._left.get(check_id, 0) + 1

    def _begin(self, session) -> bool:
        """`begin()` and the selection it made, applied to the collected items; False: no run."""
        try:
            if not self.begin():
                return False
        except BaseException as exc:  # noqa: BLE001 - the engine raises it once pytest has ended
            self.begun_error = exc
            return False
        if self.select is not None:
            keep = [item for item in session.items if self.check_id_of(item) in self.select]
            drop = [item for item in session.items if self.check_id_of(item) not in self.select]
            if drop:
                session.config.hook.pytest_deselected(items=drop)
            session.items[:] = keep
            self._count(keep)
        return True

    def check_id_of(self, item) -> str:
        return self.by_test[getattr(item, "originalname", None) or item.name].id

    # -- running -------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        """With jobs > 1, the checks' groups run in forked workers (grader/engine/parallel.py);
        otherwise (or with one group) pytest's own loop runs them one after another.
        First, `before_checks` may say that no check is to run (a lab that cannot start)."""
        if self.begin is not None and not self._begin(session):
            session.items[:] = []
            return True
        if self.before_checks is not None and self.before_checks() is not None:
            return True
        if self.jobs <= 1 or not parallel.available() or session.testsfailed or session.config.option.collectonly:
            return None
        found = parallel.groups(session.items, self.check_id_of, self.context.fixtures.resolve())
        if len(found) <= 1:
            return None
        factory = getattr(session.config, "_tmp_path_factory", None)
        if factory is not None:  # made once here, not raced for by the workers
            factory.getbasetemp()
        self._report, self.on_done = self.on_done, None
        order = list(dict.fromkeys(self.check_id_of(item) for item in session.items))
        parallel.run_groups(session, found, self.jobs, self, order, self._broken)
        return True

    def finish_check(self, check_id: str, outcome: Outcome) -> None:
        """A worker's Outcome for `check_id`, taken in the contract's order."""
        self.outcomes[check_id] = outcome
        if self._report is not None:
            try:
                self._report(check_id, outcome)
            except Exception:  # a progress line that cannot be shown must not change the result
                self._report = None

    def _broken(self, check_id: str, status: int | None, why: str | None) -> Outcome:
        from grader.i18n import word
        if status is not None and status < 0:
            return Outcome(Status.ERROR, word("worker.killed", signal=-status))
        return Outcome(Status.ERROR, word("worker.stopped", why=why or f"exit status {status}"))

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        """Children a shared fixture starts belong to every check that uses it (each one's
        --keep reproduce lines include them), not only to the first one that set it up."""
        self._own += self.context.take_children()
        try:
            return (yield)
        finally:
            made = self.context.take_children()
            if made:
                self._by_fixture.setdefault(fixturedef.argname, []).extend(made)
                self._made += made

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.context.take_children()  # children of nobody's (module-level code) are dropped
        self._own = []
        started = time.perf_counter()
        check = self.by_test[getattr(item, "originalname", None) or item.name]
        outcome = self._current[item.nodeid] = Outcome()
        self.context.current = check.id  # its scratch dirs are named after it (ctx.tmp)
        forget_refusals()  # the fake provider's refusals of this check's requests only
        try:
            return (yield)
        finally:
            self.context.current = None
            outcome.duration = round(time.perf_counter() - started, 3)
            shared = [child for name in getattr(item, "fixturenames", ())
                      for child in self._by_fixture.get(name, ())]
            own = self._own + self.context.take_children()
            outcome.repro = tuple(dict.fromkeys(r.command_line() for r in (*shared, *own)))
            started_here = [r for r in (*self._made, *own) if self.context.is_agent(r)]  # each counted once
            outcome.agent_runs = len(started_here)
            outcome.agent_finished = sum(1 for r in started_here if not r.stopped)
            outcome.agent_timeouts = sum(1 for r in started_here if r.timed_out)
            self._own, self._made = [], []
            self._keep(check.id, outcome)
            self._left[check.id] = self._left.get(check.id, 1) - 1
            if self._left[check.id] <= 0 and self.on_done is not None:
                try:
                    self.on_done(check.id, self.outcomes[check.id])
                except Exception:  # a progress line that cannot be shown must not change the result
                    self.on_done = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        outcome = self._current.get(item.nodeid)
        if outcome is not None and call.excinfo is not None and outcome.status is Status.PASSED:
            for key, value in classify(call.excinfo, call.when).items():
                setattr(outcome, key, value)
            note = refusal_note() if outcome.status in (Status.FAILED, Status.TIMEOUT) else None
            if note:  # a request a real provider refuses: the failure names what the agent sent
                outcome.message = f"{outcome.message} {note}"
        return report

    def _keep(self, check_id: str, outcome: Outcome) -> None:
        earlier = self.outcomes.get(check_id)  # a parametrized check: the first non-pass wins
        if earlier is None or (earlier.status is Status.PASSED and outcome.status is not Status.PASSED):
            if earlier is not None:
                outcome.duration += earlier.duration
                outcome.agent_runs += earlier.agent_runs
                outcome.agent_finished += earlier.agent_finished
                outcome.agent_timeouts += earlier.agent_timeouts
            self.outcomes[check_id] = outcome
        else:
            earlier.duration += outcome.duration
            earlier.agent_runs += outcome.agent_runs
            earlier.agent_finished += outcome.agent_finished
            earlier.agent_timeouts += outcome.agent_timeouts
