"""Checks run beside each other (grader/parallel.py): what a serial run gives, shared setup
once, the contract's order, a dead worker reported, and real concurrency.

The toy course's day-02 checks module is replaced by one whose checks record where they
ran (the pid of the process running them) and what they made, under the run root kept
with `keep=True`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from grader import parallel
from grader.engine import run_day

pytestmark = pytest.mark.skipif(not parallel.available(), reason="needs fork()")

CHECKS = '''\
import os
import signal
import time

import pytest

from grader.checkkit import CheckFailed


def note(ctx, name, text):
    with open(ctx.run_root / name, "a", encoding="utf-8") as handle:
        handle.write(text + "\\n")


def rendezvous(ctx, mine, theirs):
    """Passes only if the other check runs at the same time as this one."""
    if not (ctx.fixtures / "rendezvous").exists():
        return
    (ctx.run_root / mine).touch()
    deadline = time.monotonic() + 120
    while not (ctx.run_root / theirs).exists():
        if time.monotonic() > deadline:
            raise CheckFailed("the other check never ran beside this one")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def shared(ctx):
    note(ctx, "setups", str(os.getpid()))
    return ctx.tmp("shared-setup")


def test_ok(ctx):
    note(ctx, "pids", f"ok {os.getpid()}")
    rendezvous(ctx, "ok.here", "wrong.here")


def test_wrong(ctx):
    note(ctx, "pids", f"wrong {os.getpid()}")
    rendezvous(ctx, "wrong.here", "ok.here")
    raise CheckFailed("drawn " + str(ctx.rng("wrong").random()), expected="42", seen=str(ctx.tmp("made").relative_to(ctx.run_root)))


def test_broken(ctx, shared):
    note(ctx, "pids", f"broken {os.getpid()}")
    {}["missing"]


def test_slow(ctx, shared):
    note(ctx, "pids", f"slow {os.getpid()}")
    assert shared.is_dir()
    raise CheckFailed("shared dir " + str(shared.relative_to(ctx.run_root)))


def test_skipped(ctx):
    note(ctx, "pids", f"skipped {os.getpid()}")
    pytest.skip("skipped in " + str(ctx.tmp("x").relative_to(ctx.run_root)))


def test_shared_a(ctx):
    note(ctx, "pids", f"shared-a {os.getpid()}")
    if (ctx.fixtures / "die").exists():
        os.kill(os.getpid(), signal.SIGKILL)


def test_shared_b(ctx):
    note(ctx, "pids", f"shared-b {os.getpid()}")
'''


@pytest.fixture
def day(course_dir):
    from grader.course import load_course

    (course_dir / "checks" / "day02" / "checks.py").write_text(CHECKS)
    return load_course(course_dir / "course.toml"), course_dir


def grade(day, jobs, **options):
    course, _ = day
    the_day = course.find_day("day-02")
    seen = []
    result = run_day(course, the_day, the_day.lab, keep=True, seed=7, jobs=jobs,
                     on_check=lambda check_id, status: seen.append(check_id), **options)
    root = Path(result.run_root)
    pids = {}
    for line in (root / "pids").read_text().splitlines():
        check_id, pid = line.split()
        pids[check_id] = int(pid)
    setups = (root / "setups").read_text().split() if (root / "setups").exists() else []
    shutil.rmtree(root)
    return result, seen, pids, setups


def outcome(result):
    return [(c.id, c.status, c.message, c.expected, c.seen, c.repro) for c in result.all_results()]


def test_a_concurrent_run_gives_what_a_serial_run_gives(day):
    serial, serial_seen, serial_pids, _ = grade(day, 1)
    both, both_seen, both_pids, setups = grade(day, 2)
    assert outcome(both) == outcome(serial)
    assert [c.id for c in both.all_results()] == ["ok", "wrong", "broken", "slow", "skipped", "shared-a",
                                                  "shared-b", "missing"]
    # scratch dirs are named after the check that made them, whatever ran before it
    by_id = {c.id: c for c in both.all_results()}
    assert by_id["wrong"].seen == "wrong/made" and by_id["slow"].message == "shared dir broken/shared-setup"
    assert by_id["skipped"].message == "skipped in skipped/x"
    # serially every check runs in this process; beside each other, in workers
    assert set(serial_pids.values()) == {os.getpid()}
    assert os.getpid() not in both_pids.values() and len(set(both_pids.values())) > 1
    # the fixture two checks share is made once, and both run where it was made
    assert len(setups) == 1 and both_pids["broken"] == both_pids["slow"] == int(setups[0])
    # progress comes in the contract's order, once per check that ran
    assert serial_seen == both_seen == ["ok", "wrong", "broken", "slow", "skipped", "shared-a", "shared-b"]


def test_checks_really_run_at_the_same_time(day):
    """`ok` and `wrong` each wait for the other to have started: they pass only side by side."""
    _, course_dir = day
    (course_dir / "checks" / "day02" / "rendezvous").touch()
    result, _, pids, _ = grade(day, 2)
    by_id = {c.id: c for c in result.all_results()}
    assert by_id["ok"].status.value == "passed", by_id["ok"].message
    assert by_id["wrong"].message.startswith("drawn ") and pids["ok"] != pids["wrong"]


def test_a_worker_killed_under_a_check_is_that_checks_error_and_the_rest_still_run(day):
    _, course_dir = day
    (course_dir / "checks" / "day02" / "die").touch()
    result, _, _, _ = grade(day, 2)
    by_id = {c.id: c for c in result.all_results()}
    assert by_id["shared-a"].status.value == "error" and "signal 9" in by_id["shared-a"].message
    assert by_id["shared-b"].status.value == "passed" and by_id["ok"].status.value == "passed"
    assert by_id["wrong"].status.value == "failed"


def test_groups_keep_shared_fixtures_and_checks_together():
    """Items sharing a wide fixture of the checks folder, or being one check, stay together;
    a function-scoped fixture, or a wide one from elsewhere (a plugin's), joins nothing."""
    here = Path(__file__).resolve().parent

    class Fixture:
        def __init__(self, name):
            self.scope = "function" if name == "local" else "module"
            self.func = os.getcwd if name == "plugin" else (lambda: None)  # a builtin has no __code__

    class Item:
        def __init__(self, name, fixtures=()):
            self.name = name
            self._fixtureinfo = type("Info", (), {"name2fixturedefs": {f: [Fixture(f)] for f in fixtures}})()

    items = [Item("a", ["round", "plugin"]), Item("b"), Item("c", ["round", "local"]), Item("b", ["plugin"]),
             Item("d", ["forks"]), Item("e", ["forks", "local"]), Item("f", ["local", "plugin"])]
    found = parallel.groups(items, lambda item: item.name, here)
    assert [[i.name for i in g] for g in found] == [["a", "c"], ["b", "b"], ["d", "e"], ["f"]]


@pytest.mark.parametrize("cores, load, jobs", [(2, 0.3, 2), (2, 1.7, 2), (2, 2.2, 1), (2, 9.0, 1), (8, 3.5, 6),
                                               (1, 0.0, 1)])
def test_the_default_takes_the_cores_less_those_already_busy(monkeypatch, cores, load, jobs):
    monkeypatch.setattr(parallel, "cores", lambda: cores)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert parallel.default_jobs() == jobs
