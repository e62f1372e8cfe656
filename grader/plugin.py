"""The pytest plugin the engine runs a day's checks module with.

It provides the `ctx` fixture, maps each test `test_<id with - as _>` to a check
id from course.toml, and turns every outcome into a `CheckResult`:

    CheckFailed / AssertionError / pytest.fail  -> failed (message, expected, seen)
    ChildTimeout                                 -> timeout
    pytest.skip                                  -> skipped
    anything else                                -> error (the check itself broke)

The same mapping applies to an exception raised while preparing a shared
fixture (pytest re-raises it for every check that uses it), with the message
saying it happened in the shared setup.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from grader import spawn
from grader.checkkit import CheckFailed, short
from grader.course import Check, Course, Day
from grader.results import CheckResult
from grader.spawn import ChildTimeout


@dataclass
class CheckContext:
    """What every check receives as `ctx`."""

    lab: Path  # the student's lab directory (never modified by a check)
    day: Day
    course: Course
    fixtures: Path  # grader/checks/<module stem>/: data the checks own
    keep: bool  # --keep: scratch dirs survive the run
    run_root: Path  # every scratch dir of this run lives under it
    _used: set[str] = field(default_factory=set, repr=False)

    def tmp(self, name: str) -> Path:
        """A fresh, empty scratch directory named after `name` (suffixed if taken)."""
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name) or "tmp"
        candidate, number = safe, 1
        while candidate in self._used or (self.run_root / candidate).exists():
            number += 1
            candidate = f"{safe}-{number}"
        self._used.add(candidate)
        path = self.run_root / candidate
        path.mkdir(parents=True)
        return path

    def copy_fixture(self, name: str, dest_name: str | None = None) -> Path:
        """Copy `fixtures/<name>` (file or directory) into a fresh scratch dir; return the copy."""
        source = self.fixtures / name
        target = self.tmp(dest_name or Path(name).stem) / Path(name).name
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
        return target


def test_name_for(check_id: str) -> str:
    return "test_" + check_id.replace("-", "_")


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
    prefix = "" if when == "call" else ("in shared setup: " if when == "setup" else "while cleaning up: ")
    if isinstance(exc, pytest.skip.Exception):
        return {"status": "skipped", "message": prefix + (exc.msg or "skipped")}
    if isinstance(exc, ChildTimeout):
        message = str(exc)
        tail = exc.result.stderr_tail(3).strip()
        return {"status": "timeout", "message": prefix + message, "seen": short(tail) if tail else None}
    if isinstance(exc, CheckFailed):
        return {"status": "failed", "message": prefix + exc.message, "expected": exc.expected, "seen": exc.seen}
    if isinstance(exc, (AssertionError, pytest.fail.Exception)):
        text = getattr(exc, "msg", None) or str(exc) or "assertion failed"
        if "\nassert " in text:  # `assert x, "message"`: the message is for the student,
            text = text.split("\nassert ", 1)[0]  # pytest's introspection is not
        return {"status": "failed", "message": prefix + _first_lines(text)}
    described = f"{type(exc).__name__}: {short(str(exc), 200)}" if str(exc) else type(exc).__name__
    return {"status": "error", "message": f"{prefix}the check itself broke: {described}{_where(excinfo)}"}


class GraderPlugin:
    """Registered with pytest.main(plugins=[...]); collects one CheckResult per check."""

    def __init__(self, context: CheckContext, select: set[str] | None = None):
        self.context = context
        self.day = context.day
        self.select = select
        self.by_test = {test_name_for(c.id): c for c in self.day.all_checks}
        self.collect_errors: list[str] = []
        self.unknown_tests: list[str] = []
        self.results: dict[str, CheckResult] = {}
        self._current: dict[str, dict] = {}

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

    # -- running -------------------------------------------------------------------

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        spawn.reset_record()
        started = time.perf_counter()
        check = self.by_test[getattr(item, "originalname", None) or item.name]
        state = self._current[item.nodeid] = {"status": "passed", "message": ""}
        try:
            return (yield)
        finally:
            state["duration"] = round(time.perf_counter() - started, 3)
            state["repro"] = tuple(r.command_line() for r in spawn.recorded())
            self._record(check, state)
            spawn.reset_record()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        state = self._current.get(item.nodeid)
        if state is not None and call.excinfo is not None and state["status"] == "passed":
            state.update(classify(call.excinfo, call.when))
        return report

    def _record(self, check: Check, state: dict) -> None:
        result = CheckResult(
            id=check.id, title=check.title, status=state["status"], message=state.get("message") or "",
            expected=state.get("expected"), seen=state.get("seen"), duration=state["duration"],
            repro=state["repro"], bonus=check.bonus, exercises=check.exercises,
        )
        earlier = self.results.get(check.id)  # a parametrized check: the first non-pass wins
        if earlier is None or (earlier.passed and not result.passed):
            if earlier is not None:
                result.duration += earlier.duration
            self.results[check.id] = result
        else:
            earlier.duration += result.duration
