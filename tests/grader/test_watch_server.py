"""The watch's grading process (grader/watch/server.py): runs happen in a process of one
thread forked before the watch's threads start, so checks run side by side there; Ctrl-C
stops a run and leaves nothing behind; a grading process that dies is replaced.

Each scenario runs in a child of its own (one thread there at the fork, as in `grader
watch`, which forks before it starts its threads), on the toy course's day-02 with a
checks module of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.engine import parallel

pytestmark = pytest.mark.skipif(not parallel.available() or not Path("/proc/self").exists(),
                                reason="needs fork() and /proc")

CHECKS = '''\
import os
import signal
import sys
import time

from grader.checkkit import CheckFailed
from grader.spawn.child import start


def rendezvous(ctx, mine, theirs):
    """Passes only if the other check runs at the same time as this one."""
    (ctx.run_root / mine).touch()
    deadline = time.monotonic() + 120
    while not (ctx.run_root / theirs).exists():
        if time.monotonic() > deadline:
            raise CheckFailed("the other check never ran beside this one")
        time.sleep(0.02)


def test_ok(ctx):
    with open(os.environ["MARKS"], "a") as handle:
        handle.write(f"ok {os.getpid()}\\n")
    rendezvous(ctx, "ok.here", "wrong.here")


def test_wrong(ctx):
    rendezvous(ctx, "wrong.here", "ok.here")
    raise CheckFailed("drawn " + str(ctx.rng("wrong").random()))


def test_slow(ctx):
    """A real child that would outlive the run if nobody stopped it."""
    child = start([sys.executable, "-c", "import time; time.sleep(300)", os.environ["MARKER"]], cwd=ctx.tmp("slow"))
    with child:
        open(os.environ["STARTED"], "w").close()
        time.sleep(300)


def test_shared_a(ctx):
    if os.path.exists(os.environ["DIE"]):
        os.remove(os.environ["DIE"])
        os.kill(os.getpid(), signal.SIGKILL)


def test_shared_b(ctx):
    pass
'''

DRIVER = r"""
import json, os, signal, sys, threading, time
from pathlib import Path
from grader.course import load_course
from grader.engine import EngineError, run_day
from grader.watch.server import GradingProcess

# Ctrl-C as a watch started from a terminal has it (a test run in the background inherits it ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
course = load_course(sys.argv[1])
day = course.find_day("day-02")
scenario, jobs = sys.argv[2], int(sys.argv[3])
grading = GradingProcess(course, day, day.lab, jobs=jobs)
# the watch's threads, started after the fork as grader watch starts them
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
out = {"driver": os.getpid(), "child": grading.pid}

def brief(result):
    return [[c.id, c.status.value, c.message] for c in result.all_results()]

if scenario == "same":
    seen = []
    got = grading.grade(course, day, day.lab, select={"ok", "wrong"}, seed=7,
                        on_check=lambda check_id, status: seen.append([check_id, str(status)]))
    out["got"], out["seen"] = brief(got), seen
elif scenario == "interrupt":
    started = Path(os.environ["STARTED"])
    def press():
        while not started.exists():
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=press, daemon=True).start()
    began = time.monotonic()
    try:
        grading.grade(course, day, day.lab, select={"slow"}, seed=7)
        out["raised"] = None
    except KeyboardInterrupt:
        out["raised"] = "KeyboardInterrupt"
    out["stopped_in"] = time.monotonic() - began
    again = grading.grade(course, day, day.lab, select={"shared-b"}, seed=7)
    out["again"], out["same_child"] = brief(again), grading.pid == out["child"]
elif scenario == "died":
    Path(os.environ["DIE"]).touch()
    try:
        grading.grade(course, day, day.lab, select={"shared-a"}, seed=7)
        out["error"] = None
    except EngineError as exc:
        out["error"] = str(exc)
    again = grading.grade(course, day, day.lab, select={"shared-a"}, seed=7)
    out["again"], out["new_child"] = brief(again), grading.pid not in (None, out["child"])
grading.close()
out["child_left"] = Path(f"/proc/{out['child']}").exists()
print(json.dumps(out))
"""


def drive(course_dir: Path, tmp_path: Path, scenario: str, jobs: int) -> dict:
    (course_dir / "checks" / "day02" / "checks.py").write_text(CHECKS)
    kit = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(kit), GRADER_LANG="en", MARKS=str(tmp_path / "marks"),
               MARKER=f"marker-{tmp_path.name}", STARTED=str(tmp_path / "started"), DIE=str(tmp_path / "die"))
    done = subprocess.run([sys.executable, "-c", DRIVER, str(course_dir / "course.toml"), scenario, str(jobs)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def marked_processes(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(pid)
    return found


def test_checks_run_side_by_side_in_the_grading_process_of_a_watch_with_threads(course_dir, tmp_path):
    out = drive(course_dir, tmp_path, "same", jobs=2)
    # `ok` and `wrong` wait for each other: both get past that only side by side
    assert [row[:2] for row in out["got"]] == [["ok", "passed"], ["wrong", "failed"]], out["got"]
    assert out["got"][1][2].startswith("drawn ")
    assert [check_id for check_id, _ in out["seen"]] == ["ok", "wrong"]   # live marks, in the contract's order
    ran_in = {int(line.split()[1]) for line in (tmp_path / "marks").read_text().splitlines()}
    assert out["driver"] not in ran_in and out["child"] not in ran_in   # in a worker of the grading process
    assert not out["child_left"]


def test_ctrl_c_stops_the_run_and_its_children_and_the_next_run_still_works(course_dir, tmp_path):
    out = drive(course_dir, tmp_path, "interrupt", jobs=1)
    assert out["raised"] == "KeyboardInterrupt"
    assert out["stopped_in"] < 60, out
    assert out["again"][0][:2] == ["shared-b", "passed"], out["again"]
    assert out["same_child"], "the grading process was replaced although it stopped cleanly"
    assert not marked_processes(f"marker-{tmp_path.name}"), "a check's child outlived the interrupted run"
    assert not out["child_left"]


def test_a_grading_process_that_dies_is_an_error_for_that_run_and_replaced_for_the_next(course_dir, tmp_path):
    out = drive(course_dir, tmp_path, "died", jobs=1)
    assert out["error"] and "grading process stopped" in out["error"] and "-9" in out["error"], out
    assert out["again"][0][:2] == ["shared-a", "passed"] and out["new_child"]
    assert not out["child_left"]
