"""Grader harness: run_command on a command that starts a grandchild, past its time limit.

    python timeout_group.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir", "timeout", "command", "grace", "settle", "mark_var", "token",
"roles": [ROLE, ...], "wait_for": [ROLE, ...]} (roles such as shell, grandchild,
sleeper; wait_for defaults to shell and grandchild). The command's processes are found
from outside, never from files the lab could read or write: every process it starts
inherits MARK=TOKEN, and the command names each process it starts with
MARK_ROLE=ROLE in that process's environment (the shell itself has none). While the
call runs, a watcher thread notes every marked process /proc shows, with its role.
The call goes through the lab's ToolRegistry on a thread; the harness waits at most
timeout + grace for it, then looks (for up to `settle` seconds) whether the wait_for
processes are gone, and kills every process it saw still running (proven ours). One
answer, last.

Safety: a PID seen in /proc is never trusted. Before the harness looks at or
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


ROLE = f"{job['mark_var']}_ROLE=".encode()


def marked():
    """pid -> role of every process /proc shows whose environment holds this run's mark."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (os.getpid(), os.getppid()):
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                env = handle.read().split(b"\0")
        except OSError:
            continue
        if MARK in env:
            role = next((item[len(ROLE):].decode() for item in env if item.startswith(ROLE)), "shell")
            found[int(entry)] = role
    return found


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


seen = {}  # pid -> role, every marked process seen while the call ran
watching = threading.Event()


def watch():
    while not watching.is_set():
        seen.update(marked())
        time.sleep(0.01)


started = time.monotonic()
watcher = threading.Thread(target=watch, daemon=True)
watcher.start()
thread = threading.Thread(target=call, daemon=True)
thread.start()
thread.join(job["timeout"] + job["grace"])
answer["returned"] = not thread.is_alive()
answer["seconds"] = box.get("seconds", round(time.monotonic() - started, 3))
answer["result"] = box.get("result")
watching.set()
watcher.join(1.0)
seen.update(marked())

deadline = time.monotonic() + job["settle"]
roles = job["roles"]
answer["pids_written"] = {role: role in seen.values() for role in roles}
waited = job.get("wait_for") or ["shell", "grandchild"]


def alive(role):
    return any(ours(pid) for pid, named in seen.items() if named == role)


while any(alive(role) for role in waited) and time.monotonic() < deadline:
    time.sleep(0.01)
answer["alive"] = {role: alive(role) for role in roles}
answer["after"] = round(time.monotonic() - started, 3)

for pid in sorted(seen, key=lambda p: seen[p] == "shell"):  # what the lab left running: proven ours, one by one
    kill_if_ours(pid)
thread.join(1.0)
report(answer)
os._exit(0)  # the call's thread may still wait on a pipe: do not wait for it
