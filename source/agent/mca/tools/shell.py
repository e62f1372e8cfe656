"""run_command: run a shell command in the workdir, with a time limit.

The command runs with the workdir as its current directory and with the agent's own
interpreter first on PATH, so ``python -m unittest`` means the same Python that runs
the agent (not whatever ``python`` the user's shell would find). The result says the
exit status and how long it took, because "it failed after 30 s" and "it failed at
once" point to different causes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from .base import Tool, ToolError


def command_env() -> dict[str, str]:
    """The environment for a command: ours, with this interpreter's directory first on PATH."""
    env = dict(os.environ)
    own_bin = os.path.dirname(sys.executable)
    env["PATH"] = own_bin + os.pathsep + env.get("PATH", "")
    return env


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    """Run the command and return its status line followed by its combined output."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            args["command"], shell=True, cwd=workdir, env=command_env(),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise ToolError(f"the command did not finish within {timeout:g} s and was stopped") from None
    ms = round((time.monotonic() - started) * 1000)
    output = done.stdout.decode("utf-8", errors="replace")
    # The status goes first: if the output is long and gets truncated, it survives.
    return f"exit status {done.returncode} ({ms} ms)\n{output}"


def shell_tools(workdir: Path, timeout: float = 60.0) -> list[Tool]:
    """run_command, bound to ``workdir`` and a timeout in seconds."""
    return [
        Tool("run_command", f"Run a shell command in the workdir (stopped after {timeout:g} s).",
             {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
             lambda args: run_command(workdir, args, timeout)),
    ]
