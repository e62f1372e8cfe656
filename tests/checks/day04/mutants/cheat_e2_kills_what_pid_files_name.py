"""Cheat, E2: kills only the shell, then whatever the PID files it can find name.

A check of "the grandchild is gone too" has to know the grandchild's pid; if it learns
it from a file the command writes, the lab can read the same file. So after a timeout
it kills the shell, reads every small file of digits in the workdir, in /tmp and at the
paths the command names, and kills those pids and their groups. The process group is
never used, so a command whose children write no PID file leaves them running.
Held when a check finds the command's descendants from outside (the process tree),
never from files the lab can write.
"""
TARGET = "mca/tools/shell.py"
FAILS = ("timeout-kills-group",)

import os
import re
import signal


def run_command(workdir: Path, args: dict, timeout: float) -> str:
    started = time.monotonic()
    proc = subprocess.Popen(args["command"], shell=True, cwd=workdir, env=command_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        places = [Path(workdir), Path("/tmp")]
        places += [Path(word) for word in re.findall(r"[\w./~-]+", args["command"])]
        files = []
        for place in places:
            try:
                if place.is_file():
                    files.append(place)
                elif place.is_dir():
                    files += [p for p in list(place.rglob("*"))[:2000] if p.is_file()]
            except OSError:
                continue
        for path in files:
            try:
                if path.stat().st_size > 64:
                    continue
                text = path.read_text(errors="replace")
            except OSError:
                continue
            for number in re.findall(r"\b\d+\b", text):
                pid = int(number)
                if 1 < pid != os.getpid():
                    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
                        try:
                            kill()
                        except OSError:
                            pass
        try:
            proc.communicate(timeout=DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        raise ToolError(f"timed out after {timeout:g} s: the command and everything it started were stopped") from None
    code = proc.returncode
    ms = round((time.monotonic() - started) * 1000)
    parts = [f"exit status {code} ({ms} ms)"]
    for name, data in (("stdout", out), ("stderr", err)):
        text, _ = truncate(data.decode("utf-8", errors="replace"), STREAM_CHARS)
        if text:
            parts.append(f"--- {name} ---\n{text}")
    if code != 0:
        raise ToolError("\n".join(parts))
    return "\n".join(parts)
