"""run_command (day 4): exit status first, both streams, the workdir and our Python, and a
time limit that stops the command with everything it started - and nothing else."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .days import module_since

module_since(4, "the shell")

from mca.tools import shell  # noqa: E402
from mca.tools.registry import default_tools  # noqa: E402
from mca.tools.shell import kill_group  # noqa: E402


@pytest.fixture
def tools(workspace):
    return default_tools(workspace, command_timeout=30)


def run(tools, command: str):
    return tools.run("run_command", {"command": command})


def test_exit_status_time_stdout_and_stderr(tools):
    result = run(tools, "echo out; echo err >&2; exit 3")
    assert not result.ok  # a command that fails is a failed call, its status and output in the error
    assert re.fullmatch(r"error: exit status 3 \(\d+ ms\)\n--- stdout ---\nout\n\n--- stderr ---\nerr\n",
                        result.content)


def test_a_command_that_is_not_found_is_a_failed_call_with_status_127(tools):
    result = run(tools, "no-such-command-anywhere --version")
    assert not result.ok
    assert re.match(r"error: exit status 127 \(\d+ ms\)\n--- stderr ---\n.*not found", result.content, re.S)


def test_a_command_that_succeeds_is_an_ok_result(tools):
    result = run(tools, "echo fine")
    assert result.ok and result.content.startswith("exit status 0 ")


def test_a_silent_success_is_just_the_status(tools):
    assert re.fullmatch(r"exit status 0 \(\d+ ms\)", run(tools, "true").content)


def test_each_stream_is_cut_on_its_own_and_the_cut_declared(tools):
    result = run(tools, f"{sys.executable} -c \"import sys; print('o' * 20000); print('e' * 20000, file=sys.stderr)\"")
    out, err = result.content.split("--- stderr ---")
    assert "of 20001 characters cut" in out and "of 20001 characters cut" in err
    assert len(out) < shell.STREAM_CHARS + 100 and len(err) < shell.STREAM_CHARS + 100


def test_the_command_runs_in_the_workdir(tools, workspace):
    assert run(tools, "pwd").content.splitlines()[2] == str(workspace.resolve())


def test_python_is_the_agents_own_python_first(tools):
    result = run(tools, "python -c 'import sys; print(sys.executable)'")
    printed = result.content.split("--- stdout ---\n")[1].splitlines()[0]
    assert os.path.dirname(printed) == os.path.dirname(sys.executable)


def test_the_sample_suite_fails_on_divide_by_zero(tools):
    result = run(tools, "python -m unittest -v")
    assert not result.ok and result.content.startswith("error: exit status 1 (")
    assert "ERROR: test_divide_by_zero" in result.content and "Ran 4 tests" in result.content


# --- the time limit --------------------------------------------------------------------------

def gone(pid: int) -> bool:
    """No such process any more, or only its zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")


def test_a_timeout_stops_the_command_and_the_grandchild_holding_its_pipe(workspace):
    """A real process tree: the shell, a background sleep that keeps stdout open, a foreground sleep."""
    tools = default_tools(workspace, command_timeout=1)
    started = time.monotonic()
    result = run(tools, "sleep 60 & echo $! > grandchild.pid; sleep 60")
    took = time.monotonic() - started
    grandchild = int((workspace / "grandchild.pid").read_text())
    try:
        assert not result.ok
        assert result.content == "error: timed out after 1 s: the command and everything it started were stopped"
        assert took < 1 + shell.DRAIN_SECONDS + 5, f"the call waited {took:.1f} s on a pipe a survivor held"
        deadline = time.monotonic() + 5
        while not gone(grandchild) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gone(grandchild), "the grandchild outlived the timeout"
    finally:
        if not gone(grandchild):
            os.kill(grandchild, signal.SIGKILL)


def test_ctrl_c_while_a_command_runs_stops_it_too(workspace, monkeypatch):
    seen: list[subprocess.Popen] = []
    real = subprocess.Popen.communicate

    def interrupted(self, *args, **kwargs):
        seen.append(self)
        raise KeyboardInterrupt
    monkeypatch.setattr(subprocess.Popen, "communicate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        shell.run_command(workspace, {"command": "sleep 60"}, timeout=30)
    monkeypatch.setattr(subprocess.Popen, "communicate", real)
    (proc,) = seen
    assert proc.wait(timeout=10) == -signal.SIGKILL


# --- kill_group signals the command's own group, never ours ---------------------------------------

class FakeProc:
    """What kill_group sees of a process that has no real pid (pytest-subprocess gives pid 0)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.killed = False

    def kill(self) -> None:
        self.killed = True


@pytest.fixture
def killpg_calls(monkeypatch):
    """Every os.killpg call, passed on only when it aims at another group than ours."""
    calls: list[tuple[int, int]] = []
    real_killpg, own = os.killpg, os.getpgrp()

    def record(pgid: int, sig: int) -> None:
        calls.append((pgid, sig))
        if pgid > 0 and pgid != own:
            real_killpg(pgid, sig)
    monkeypatch.setattr(os, "killpg", record)
    return calls


@pytest.mark.parametrize("pid", [0, -1, "ours"])
def test_no_real_pid_or_our_own_group_is_killed_alone(killpg_calls, pid):
    proc = FakeProc(os.getpid() if pid == "ours" else pid)
    kill_group(proc)
    assert killpg_calls == [] and proc.killed
    assert os.getpgid(0) == os.getpgrp()  # our group is still here, and so are we


def test_a_command_in_its_own_session_is_killed_as_a_group(killpg_calls):
    child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        kill_group(child)
        assert child.wait(timeout=10) == -signal.SIGKILL
        assert killpg_calls == [(child.pid, signal.SIGKILL)]
    finally:
        child.kill()
        child.wait()


def test_a_command_sharing_our_group_is_killed_alone(killpg_calls):
    child = subprocess.Popen(["sleep", "60"])  # no session of its own: its group is ours
    try:
        kill_group(child)
        assert child.wait(timeout=10) == -signal.SIGKILL and killpg_calls == []
    finally:
        child.kill()
        child.wait()


def test_a_faked_timeout_never_signals_group_zero(tools, fp, killpg_calls):
    """The bug this guards against: a fake Popen (pid 0) timing out made the agent call killpg(0)."""
    def too_slow(process):
        raise subprocess.TimeoutExpired("python -m unittest", 30)
    fp.register("python -m unittest", callback=too_slow)
    result = run(tools, "python -m unittest")
    assert not result.ok and result.content.startswith("error: timed out after 30 s")
    assert killpg_calls == []
