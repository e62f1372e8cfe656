"""Tests of the reference agent's layers, run against every day's solution.

How the days are covered
------------------------
Every solution is a package named ``mca``, so one Python process can import only one
of them. This conftest puts ``solutions/day-NN-*`` on sys.path for ``N = $MCA_TEST_DAY``
(default 7; see days.py), and refuses to run if another ``mca`` was imported first.

* ``python -m pytest tests/agent`` tests day 7 in this process, and runs the same suite
  once for each of days 1..6 in a child ``python -m pytest tests/agent`` with
  ``MCA_TEST_DAY=N`` (every_day.py). The children start right after collection, all at
  once, each in a session of its own, and run while this process tests day 7; the six
  tests of test_every_day.py go last and wait for them. A day passes when its child
  exits 0 having passed at least one test; otherwise its output (the failures) is shown.
* ``MCA_TEST_DAY=3 python -m pytest tests/agent`` runs day 3 alone, in this process.

Each test says the first day its layer exists: ``@since(4, "the shell")``, or, for a
module whose imports need that day, ``module_since(4, "the shell")`` at its top. On an
earlier day it is skipped with the reason "the shell arrives on day 4". Behaviour a
later day replaces (day 1's non-streamed ``complete``) is marked ``@until(1, ...)``.
Inside a test, ``DAY`` tells which day is running when an assertion differs by day.

Only the solution goes on sys.path here: the lab has a package with the same name.
An autouse fixture turns any signal aimed at this process's own group (killpg(0) and
the like) into a test failure instead of the death of the test run and its shell.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from .days import DAY, SOLUTION

if str(SOLUTION) not in sys.path:
    sys.path.insert(0, str(SOLUTION))

import mca  # noqa: E402

if Path(mca.__file__).resolve().parents[1] != SOLUTION:
    raise pytest.UsageError(f"tests/agent wants {SOLUTION.name} (MCA_TEST_DAY={DAY}), but mca was "
                            f"already imported from {Path(mca.__file__).parent}; run tests/agent on its own")


def pytest_report_header(config) -> str:
    return f"mca under test: {SOLUTION.relative_to(SOLUTION.parents[1])} (day {DAY})"


CHILDREN = pytest.StashKey()


def is_every_day(item) -> bool:
    return item.nodeid.split("::")[0].endswith("tests/agent/test_every_day.py")


def pytest_collection_modifyitems(config, items) -> None:
    """The tests that wait for the other days' children go last, so the children run meanwhile."""
    items.sort(key=is_every_day)  # stable: everything else keeps its order


def pytest_collection_finish(session) -> None:
    """Start the other days' children now, if their tests are going to run."""
    waiting = [item for item in session.items if is_every_day(item)]
    if waiting and "MCA_TEST_DAY" not in os.environ and not session.config.option.collectonly:
        from .every_day import Children

        session.config.stash[CHILDREN] = Children()


def pytest_unconfigure(config) -> None:
    children = config.stash.get(CHILDREN, None)
    if children is not None:
        children.close()


@pytest.fixture
def children(request):
    """The other days' runs, by day (started by pytest_collection_finish)."""
    started = request.config.stash.get(CHILDREN, None)
    assert started is not None, "the children start after collection, when their tests are selected"
    return started.by_day


class Recorder:
    """An emit function that keeps every event, for assertions on order and content."""

    def __init__(self) -> None:
        self.events: list = []

    def __call__(self, event) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [type(event).__name__ for event in self.events]

    def of(self, kind: type) -> list:
        return [event for event in self.events if isinstance(event, kind)]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A private copy of the sample workspace (calc.py and its tests)."""
    copy = tmp_path / "workspace"
    shutil.copytree(SOLUTION / "workspace", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.fixture(autouse=True)
def never_signal_our_own_group(monkeypatch):
    """A safety net: a kill aimed at pid 0, at every process, or at the test runner's own
    process group fails the test instead of killing the runner and the shell above it."""
    own_group = os.getpgrp()
    refused: list[str] = []
    real_killpg, real_kill = os.killpg, os.kill

    def killpg(pgid: int, sig: int) -> None:
        if pgid <= 0 or pgid == own_group:
            refused.append(f"os.killpg({pgid}, {sig})")
            raise AssertionError(f"refused os.killpg({pgid}, {sig}): that is the test runner's own group")
        real_killpg(pgid, sig)

    def kill(pid: int, sig: int) -> None:
        if pid in (0, -1, -own_group):
            refused.append(f"os.kill({pid}, {sig})")
            raise AssertionError(f"refused os.kill({pid}, {sig}): that reaches the test runner itself")
        real_kill(pid, sig)

    monkeypatch.setattr(os, "killpg", killpg)
    monkeypatch.setattr(os, "kill", kill)
    yield
    assert not refused, f"the agent tried to signal the test runner's own group: {refused}"


@pytest.fixture
def server_with():
    """``server_with((status, body[, headers]), ...)``: a FakeServer answering those, closed after the test."""
    from .fakeserver import FakeServer

    servers: list[FakeServer] = []

    def start(*responses) -> FakeServer:
        servers.append(FakeServer(responses))
        return servers[-1]
    yield start
    for server in servers:
        server.close()
