"""Checks run beside each other (grader/engine/parallel.py): what a serial run gives, shared setup
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

from grader.engine import parallel

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


GRADE = """
import json, os, sys
from grader.course import load_course
from grader.engine import run_day
course = load_course(sys.argv[1])
day = course.find_day("day-02")
seen = []
if sys.argv[2] == "default":   # run_day's own default, on a machine that has two idle cores
    import grader.engine.parallel
    grader.engine.parallel.default_jobs = lambda: 2
result = run_day(course, day, day.lab, keep=True, seed=7, jobs=None if sys.argv[2] == "default" else int(sys.argv[2]),
                 on_check=lambda check_id, status: seen.append(check_id))
print(json.dumps({"pid": os.getpid(), "seen": seen, "run_root": result.run_root,
                  "results": [[c.id, c.status.value, c.message, c.expected, c.seen, list(c.repro)]
                              for c in result.all_results()]}))
"""


def grade(day, jobs):
    """One grading in a child of its own: one thread there, as in `grader check` (the test
    process runs threads of its own, and a check here may SIGKILL the process it runs in)."""
    import json
    import subprocess
    import sys

    _, course_dir = day
    root_of_kit = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root_of_kit))
    done = subprocess.run([sys.executable, "-c", GRADE, str(course_dir / "course.toml"), str(jobs)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout.strip().splitlines()[-1])
    kept = Path(data["run_root"])
    root = kept / "work"  # ctx.run_root: the part of the run root the lab's children may see
    pids = {}
    for line in (root / "pids").read_text().splitlines():
        check_id, pid = line.split()
        pids[check_id] = int(pid)
    setups = (root / "setups").read_text().split() if (root / "setups").exists() else []
    shutil.rmtree(kept)
    return data, data["seen"], pids, setups, data["pid"]


def outcome(result):
    return [tuple(row) for row in result["results"]]


def by_id(result):
    return {row[0]: {"status": row[1], "message": row[2], "expected": row[3], "seen": row[4]}
            for row in result["results"]}


def test_a_concurrent_run_gives_what_a_serial_run_gives(day):
    serial, serial_seen, serial_pids, _, serial_pid = grade(day, 1)
    both, both_seen, both_pids, setups, both_pid = grade(day, 2)
    assert outcome(both) == outcome(serial)
    assert [row[0] for row in both["results"]] == ["ok", "wrong", "broken", "slow", "skipped", "shared-a",
                                                    "shared-b", "missing"]
    # scratch dirs are named after the check that made them, whatever ran before it
    checks = by_id(both)
    from grader.checkkit.context import neutral
    named = lambda *names: "/".join(map(neutral, names))  # noqa: E731 - scratch names say nothing of the check
    assert checks["wrong"]["seen"] == named("wrong", "made")
    assert checks["slow"]["message"] == "shared dir " + named("broken", "shared-setup")
    assert checks["skipped"]["message"] == "skipped in " + named("skipped", "x")
    # serially every check runs in the grading process; beside each other, in workers
    assert set(serial_pids.values()) == {serial_pid}
    assert both_pid not in both_pids.values() and len(set(both_pids.values())) > 1
    # the fixture two checks share is made once, and both run where it was made
    assert len(setups) == 1 and both_pids["broken"] == both_pids["slow"] == int(setups[0])
    # progress comes in the contract's order, once per check that ran
    assert serial_seen == both_seen == ["ok", "wrong", "broken", "slow", "skipped", "shared-a", "shared-b"]


def test_checks_really_run_at_the_same_time(day):
    """`ok` and `wrong` each wait for the other to have started: they pass only side by side."""
    _, course_dir = day
    (course_dir / "checks" / "day02" / "rendezvous").touch()
    result, _, pids, _, _ = grade(day, 2)
    checks = by_id(result)
    assert checks["ok"]["status"] == "passed", checks["ok"]["message"]
    assert checks["wrong"]["message"].startswith("drawn ") and pids["ok"] != pids["wrong"]


def test_by_default_checks_run_side_by_side_on_the_idle_cores(day):
    _, course_dir = day
    (course_dir / "checks" / "day02" / "rendezvous").touch()
    result, _, pids, _, grader_pid = grade(day, "default")
    assert by_id(result)["ok"]["status"] == "passed", by_id(result)["ok"]["message"]
    assert grader_pid not in pids.values()


def test_a_worker_killed_under_a_check_is_that_checks_error_and_the_rest_still_run(day):
    _, course_dir = day
    (course_dir / "checks" / "day02" / "die").touch()
    result, _, _, _, _ = grade(day, 2)
    checks = by_id(result)
    assert checks["shared-a"]["status"] == "error" and "signal 9" in checks["shared-a"]["message"]
    assert checks["shared-b"]["status"] == "passed" and checks["ok"]["status"] == "passed"
    assert checks["wrong"]["status"] == "failed"


def test_a_process_with_other_threads_runs_its_checks_one_after_another():
    import threading

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    helper.start()
    try:
        assert not parallel.available()
    finally:
        stop.set()
        helper.join()


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
