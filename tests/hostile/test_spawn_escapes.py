"""spawn against children that try to get away: the time-limit scale, the descendants
that leave the process group, and pipes held open by a process the group kill missed."""

from __future__ import annotations

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


def test_a_double_forked_daemon_is_killed_by_the_token_it_inherited(tmp_path, marker):
    script = ("import os, sys\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    if os.fork() == 0:\n"
              "        null = os.open(os.devnull, os.O_RDWR)\n"
              "        [os.dup2(null, fd) for fd in (0, 1, 2)]\n"
              f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
              "    os._exit(0)\n"
              "os.wait()\n")
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, timeout=20)
    assert result.returncode == 0
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


def test_the_token_is_in_the_childs_environment_but_not_in_the_repro_line(tmp_path):
    script = f"import os; print(os.environ.get({spawn.TOKEN_VAR!r}, ''))"
    env = spawn.LabRunner(lab=tmp_path, agent=Agent()).env()
    result = spawn.run([sys.executable, "-c", script], cwd=tmp_path, env=env, timeout=20)
    token = result.stdout.strip()
    assert len(token) == 32
    assert token not in result.command_line() and f"{spawn.TOKEN_VAR}=" not in result.command_line()


def test_two_children_have_different_tokens_so_one_finishing_spares_the_other(tmp_path):
    script = f"import os, sys, time; print(os.environ[{spawn.TOKEN_VAR!r}], flush=True); sys.stdin.read()"
    with spawn.start([sys.executable, "-c", script], cwd=tmp_path) as long_lived:
        spawn.run([sys.executable, "-c", "print('short')"], cwd=tmp_path, timeout=20)
        assert long_lived.running()
        long_lived.close_stdin()
        result = long_lived.wait(10)
    assert result.returncode == 0 and len(result.stdout.strip()) == 32
