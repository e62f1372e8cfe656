"""spawn against children that try to get away: the time-limit scale, the descendants
that leave the process group, and pipes held open by a process the group kill missed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid

import pytest

from grader import spawn
from grader.course import Agent
from tests.hostile import hostile

pytestmark = hostile.linux_only


@pytest.fixture
def marker():
    name = f"spawn-escape-{uuid.uuid4().hex[:12]}"
    yield name
    hostile.kill_all(name)


@pytest.mark.parametrize("value, asked, effective", [
    (None, 30, 30), ("", 30, 30), ("1", 0.3, 0.3), ("oops", 30, 30), ("-2", 30, 30),
    ("0.1", 30, 3.0), ("0.1", 5, 1.0), ("0.1", 0.3, 0.3), ("2", 10, 20),
])
def test_the_timeout_scale_knob(monkeypatch, value, asked, effective):
    if value is None:
        monkeypatch.delenv(spawn.SCALE_VAR, raising=False)
    else:
        monkeypatch.setenv(spawn.SCALE_VAR, value)
    assert spawn.scaled(asked) == pytest.approx(effective)


def test_a_scaled_limit_stops_a_sleeper_and_says_the_limit_it_used(monkeypatch, tmp_path):
    monkeypatch.setenv(spawn.SCALE_VAR, "0.1")
    started = time.monotonic()
    with pytest.raises(spawn.ChildTimeout) as caught:
        spawn.run([sys.executable, "-c", "import time; time.sleep(60)"], cwd=tmp_path, timeout=20)
    assert time.monotonic() - started < 15  # 2 s asked; unscaled it would take 20
    assert "within 2 s" in str(caught.value)


def test_a_grandchild_in_a_new_session_holding_the_pipes_is_killed_and_costs_no_wait(tmp_path, marker):
    script = ("import subprocess, sys\n"
              f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],"
              " start_new_session=True)\n"
              "print('bye')\n")
    started = time.monotonic()
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, timeout=20)
    assert (result.returncode, result.stdout) == (0, "bye\n")
    assert time.monotonic() - started < 4  # the pipes closed when it died: no drain grace spent
    assert hostile.leftovers(marker) == []


# A grading process (`grader check`, a parallel worker, a batch's worker) adopts the orphans
# of its lab children (grader/spawn/groups.py); this runs spawn in such a process.
ADOPTING = """
import json, sys
from grader import spawn
from grader.spawn import groups
groups.adopt_orphans()
script = sys.stdin.read()
result = spawn.run([sys.executable, "-c", script], cwd=sys.argv[1], timeout=20)
print(json.dumps({"returncode": result.returncode, "survivors": list(result.survivors)}))
"""


def _in_a_grading_process(script: str, cwd) -> dict:
    done = subprocess.run([sys.executable, "-c", ADOPTING, str(cwd)], input=script, capture_output=True, text=True,
                          timeout=60, cwd=str(hostile.KIT))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_double_forked_daemon_with_a_fresh_environment_and_no_pipes_is_found_from_outside(tmp_path, marker):
    # a new session, its pipes let go, exec'd with an empty environment: nothing of the child's
    # is left on it but the orphan's adoption by the grading process
    script = ("import os, sys\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    if os.fork() == 0:\n"
              "        null = os.open(os.devnull, os.O_RDWR)\n"
              "        [os.dup2(null, fd) for fd in (0, 1, 2)]\n"
              f"        os.execve(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}], {{}})\n"
              "    os._exit(0)\n"
              "os.wait()\n")
    result = _in_a_grading_process(script, tmp_path)
    assert result == {"returncode": 0, "survivors": []}
    assert hostile.leftovers(marker) == []


def test_a_daemon_in_the_childs_session_is_killed_even_outside_a_grading_process(tmp_path, marker):
    script = ("import os, sys\n"
              "if os.fork() == 0:\n"
              "    if os.fork() == 0:\n"
              "        null = os.open(os.devnull, os.O_RDWR)\n"
              "        [os.dup2(null, fd) for fd in (0, 1, 2)]\n"
              f"        os.execve(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}], {{}})\n"
              "    os._exit(0)\n"
              "os.wait()\n")
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, timeout=20)
    assert (result.returncode, result.survivors) == (0, ())
    assert hostile.leftovers(marker) == []


def test_a_daemon_started_by_a_child_that_is_killed_midway_goes_too(tmp_path, marker):
    script = ("import subprocess, sys, time\n"
              f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],"
              " start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
              "print('started', flush=True)\n"
              "time.sleep(600)\n")
    with spawn.start([sys.executable, "-c", script], cwd=tmp_path) as child:
        for _ in range(500):
            if "started" in child.stdout_so_far():
                break
            time.sleep(0.01)
        child.kill()
        child.wait(10)
    assert hostile.leftovers(marker) == []


def test_nothing_marks_a_child_in_its_environment(tmp_path):
    script = "import json, os; print(json.dumps(dict(os.environ)))"
    env = spawn.LabRunner(lab=tmp_path, agent=Agent()).env()
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, env=env, timeout=20)
    assert json.loads(result.stdout) == env


def test_a_child_finishing_spares_another_that_still_runs_in_a_grading_process(tmp_path):
    script = ("import json, subprocess, sys\n"
              "from grader import spawn\n"
              "from grader.spawn import groups\n"
              "groups.adopt_orphans()\n"
              "cwd = sys.argv[1]\n"
              "with spawn.start([sys.executable, '-c', 'import sys; sys.stdin.read(); print(\\'long\\')'], cwd=cwd) as long_lived:\n"
              "    spawn.run([sys.executable, '-c', 'print(1)'], cwd=cwd, timeout=20)\n"
              "    running = long_lived.running()\n"
              "    long_lived.close_stdin()\n"
              "    result = long_lived.wait(10)\n"
              "print(json.dumps([running, result.returncode, result.stdout]))\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60,
                          cwd=str(hostile.KIT))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [True, 0, "long\n"]


def test_a_child_a_check_left_running_is_stopped_at_the_end_of_the_grading(tmp_path, marker):
    from grader.spawn.child import stop_all
    child = spawn.start([sys.executable, "-c", "import time; time.sleep(600)", marker], cwd=tmp_path)
    assert hostile.processes_with(marker)  # a check raised before it waited: nobody left the block
    assert stop_all() == []
    assert not child.running()
    assert hostile.leftovers(marker) == []
