"""Grader harness: run_command on a command that starts a grandchild, past its time limit.

    python timeout_group.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir", "timeout", "command", "grace", "settle", "roles": {ROLE: MARK, ...},
"wait_for": [ROLE, ...]} (roles such as shell, grandchild, sleeper; wait_for defaults to
shell and grandchild). The command's processes are found from outside, never from
anything the lab could read or write (no variable in its environment, no PID file): this
harness makes itself the subreaper of everything it starts (PR_SET_CHILD_SUBREAPER), so
every process the command starts stays in its process tree, even one whose parent died
or that left its session; a watcher thread walks that tree in /proc while the call runs.
A process's role is the one whose MARK (a random number the command gives that process
alone, such as its sleep's length) is in its command line; any other process of the tree
is the shell. The call goes through the lab's ToolRegistry on a thread; the harness waits
at most timeout + grace for it, then looks (for up to `settle` seconds) whether the
wait_for processes are gone, and kills every process it saw still running (proven ours).
One answer, last.

Safety: a PID seen in /proc is never trusted. Before the harness looks at or signals a
process, it proves the process is one this harness started: a descendant of this process
(its chain of parents in /proc leads here). PIDs <= 1 and this process are never touched,
no process group is ever signalled, and a kill goes through a pidfd opened before the
proof, so a PID reused in between can never receive it.
"""
import ctypes
import os
import signal
import threading
import time
from pathlib import Path

from harnesskit import failure, job as read_job, report

job = read_job()
workdir = Path(job["workdir"])
MARKS = {role: str(mark) for role, mark in job["roles"].items() if mark}
ME = os.getpid()
try:  # orphans of the command are re-parented here, not to init: they stay in the tree
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (OSError, AttributeError):
    pass


def parents():
    """pid -> (parent pid, state) of every process /proc shows."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        found[int(entry)] = (int(fields[1]), fields[0])
    return found


def descendants(table=None):
    """The pids whose chain of parents leads to this process."""
    table = parents() if table is None else table
    found, frontier = set(), {ME}
    while frontier:
        frontier = {pid for pid, (ppid, _) in table.items() if ppid in frontier and pid not in found}
        found |= frontier
    return found


def role_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read().decode("utf-8", "replace").replace("\0", " ").split()
    except OSError:
        return None
    named = [role for role, mark in MARKS.items() if mark in words]
    return named[0] if len(named) == 1 else "shell"


def marked():
    """pid -> role of every live process of this harness's tree."""
    table = parents()
    found = {}
    for pid in descendants(table):
        if table[pid][1] in (b"Z", b"X"):
            continue
        role = role_of(pid)
        if role is not None:
            found[pid] = role
    return found


def ours(pid):
    """A live (not zombie) process of this harness's tree."""
    if not isinstance(pid, int) or pid <= 1 or pid == ME:
        return False
    table = parents()
    return pid in table and table[pid][1] not in (b"Z", b"X") and pid in descendants(table)


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
        for pid, role in marked().items():
            if seen.get(pid, "shell") == "shell":  # a process named before its exec is named by what it became
                seen[pid] = role
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
for pid, role in marked().items():
    if seen.get(pid, "shell") == "shell":
        seen[pid] = role

deadline = time.monotonic() + job["settle"]
roles = list(job["roles"])
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
