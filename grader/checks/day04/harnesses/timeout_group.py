"""Grader harness: run_command on a command that starts a grandchild, past its time limit.

    python timeout_group.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir", "timeout", "command", "grace", "settle", "mark_var", "token",
"pid_files": {ROLE: NAME, ...}, "wait_for": [ROLE, ...]} (roles such as shell,
grandchild, sleeper; wait_for defaults to shell and grandchild). The command writes
the PIDs of its shell and of the processes it starts into those files (in the workdir).
The call goes through the lab's ToolRegistry on a thread; the harness waits at most
timeout + grace for it, then looks (for up to `settle` seconds) whether the wait_for
processes are gone, and kills every process of the pid files still running (proven
ours). One answer, last.

Safety: a PID read from a file is never trusted. Before the harness looks at or
signals a process, it proves the process is one this harness started: its
/proc/PID/environ must hold MARK=TOKEN, a random token set here (every process the
command starts inherits it). PIDs <= 1, this process and its parent are never touched,
no process group is ever signalled, and a kill goes through a pidfd opened before the
proof, so a PID reused in between can never receive it.
"""
import os
import signal
import threading
import time
from pathlib import Path

from harnesskit import failure, job as read_job, report

job = read_job()
workdir = Path(job["workdir"])
MARK = f"{job['mark_var']}={job['token']}".encode()
os.environ[job["mark_var"]] = job["token"]  # inherited by the command and all it starts


def read_pid(name):
    try:
        text = (workdir / name).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def ours(pid):
    """A live (not zombie) process whose environment carries this run's mark."""
    if not isinstance(pid, int) or pid <= 1 or pid in (os.getpid(), os.getppid()):
        return False
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            env = handle.read().split(b"\0")
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return MARK in env and state not in (b"Z", b"X")


def kill_if_ours(pid):
    """SIGKILL one process, only after proving it is ours (through a pidfd: no reuse race)."""
    if not hasattr(os, "pidfd_open") or not isinstance(pid, int) or pid <= 1:
        return  # without a pidfd, leave it to the grader's own cleanup
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        if ours(pid):
            signal.pidfd_send_signal(fd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(fd)


answer = {}
box = {}
try:
    from mca.tools.registry import default_tools

    registry = default_tools(workdir, command_timeout=job["timeout"])
except BaseException as exc:
    report(failure(exc))
    os._exit(0)


def call():
    started = time.monotonic()
    try:
        result = registry.run("run_command", {"command": job["command"]})
        box["result"] = {"ok": bool(result.ok), "content": str(result.content)}
    except BaseException as exc:
        box["result"] = failure(exc)
    box["seconds"] = round(time.monotonic() - started, 3)


started = time.monotonic()
thread = threading.Thread(target=call, daemon=True)
thread.start()
thread.join(job["timeout"] + job["grace"])
answer["returned"] = not thread.is_alive()
answer["seconds"] = box.get("seconds", round(time.monotonic() - started, 3))
answer["result"] = box.get("result")

names = job["pid_files"]
deadline = time.monotonic() + job["settle"]
pids = {role: read_pid(name) for role, name in names.items()}
while any(p is None for p in pids.values()) and time.monotonic() < deadline:
    time.sleep(0.01)
    pids = {role: read_pid(name) for role, name in names.items()}
answer["pids_written"] = {role: pid is not None for role, pid in pids.items()}
waited = job.get("wait_for") or ["shell", "grandchild"]
while any(ours(pids[role]) for role in waited) and time.monotonic() < deadline:
    time.sleep(0.01)
answer["alive"] = {role: ours(pid) for role, pid in pids.items()}
answer["after"] = round(time.monotonic() - started, 3)

for role in sorted(pids, key=lambda r: r == "shell"):  # what the lab left running: proven ours, one by one
    kill_if_ours(pids.get(role))
thread.join(1.0)
report(answer)
os._exit(0)  # the call's thread may still wait on a pipe: do not wait for it
