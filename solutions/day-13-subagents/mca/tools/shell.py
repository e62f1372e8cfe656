"""run_command: run a shell command in the workdir, with a time limit.

The command runs with the workdir as its current directory and with the agent's own
interpreter first on PATH, so ``python -m unittest`` means the same Python that runs
the agent. Three things make it safe to hand to a model:

* a time limit that stops the command *and everything it started*: the shell runs
  in a process group of its own, and the whole group is killed (``subprocess.run``
  with a timeout kills only the shell; a grandchild that holds the output pipe then
  keeps the call waiting);
* the exit status, first, because "exit status 1" is half of what a test run says, and
  a command that exits non-zero (one that is not found exits 127) is a failed call: the
  model reads ``error: exit status N`` and never mistakes it for a success;
* both output streams, each cut to a size the model can read, and the cut declared.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .base import Tool, ToolError
from .truncate import truncate

STREAM_CHARS = 3500  # of each stream, so the exit status and both streams fit in one result
DRAIN_SECONDS = 2    # after a kill: how long to wait for what the group already wrote


def command_env() -> dict[str, str]:
    """The environment for a command: ours, with this interpreter's directory first on PATH."""
    env = dict(os.environ)
    own_bin = os.path.dirname(sys.executable)
    env["PATH"] = own_bin + os.pathsep + env.get("PATH", "")
    return env


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the command's whole process group: the shell and all it started.

    Never a group that is not the command's own: killpg(0) would kill the agent's
    group (and the terminal's jobs with it), so a process without a real pid, or one
    that shares the agent's group, is killed alone.
    """
    try:
        if proc.pid > 0 and os.getpgid(proc.pid) == proc.pid != os.getpgrp():
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    """Run the command; return its exit status, then what it printed: as the result when the
    status is 0, as a ToolError (a failed call) when it is not."""
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # its own process group: one kill stops it all
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        try:  # what was written before the kill, without waiting on a pipe a survivor still holds
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError(f"timed out after {timeout:g} s: the command and everything it started were stopped") from None
    except BaseException:  # Ctrl-C, or anything else: never leave the command running
        kill_group(proc)
        raise
    code = proc.returncode
    ms = round((time.monotonic() - started) * 1000)
    # The status goes first: if the output is long and gets cut, it survives.
    parts = [f"exit status {code} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    if code != 0:  # not found (127), a failing test run (1), killed by a signal (< 0): a failed call
        raise ToolError("\n".join(parts))
    return "\n".join(parts)


def shell_tools(workdir: Path, timeout: float = 60.0) -> list[Tool]:
    """run_command, bound to ``workdir`` and a timeout in seconds."""
    return [
        Tool("run_command", f"Run a shell command in the workdir (stopped after {timeout:g} s).",
             {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
             lambda args: run_command(workdir, args, timeout)),
    ]
