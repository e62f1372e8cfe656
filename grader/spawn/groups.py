"""Process groups, and the descendants that leave them.

Every child starts in a new session (its own process group), so the grader can
kill it *and* anything it started (a test suite, a shell) with one SIGKILL to the
group. A student's code may start a process in a session of its own
(`start_new_session=True`, a double fork): the group kill misses it. Every child
therefore carries a random token in its environment, which its descendants
inherit; on Linux every process whose /proc environ holds that token, or which
holds one of the child's pipes, is SIGKILLed too. What this cannot catch: a
process that exec'd itself with a fresh environment *and* let go of the pipes
(only a container or cgroup can guarantee that).
"""

from __future__ import annotations

import os
import signal
import time


def own_group(proc) -> int | None:
    """The process group a real child leads, or None (then nothing is ever killed).

    Called right after Popen returns, before the child is reaped. A stand-in
    process (pytest-subprocess's FakePopen) has a made-up pid that may belong to
    a real process, even pid 1: it is recognised by its type and never signalled.
    """
    if type(proc).__module__ != "subprocess" or not isinstance(proc.pid, int) or proc.pid <= 1:
        return None
    try:
        pgid = os.getpgid(proc.pid)
    except OSError:
        return None
    if pgid != proc.pid or pgid == os.getpgrp():  # not the leader of a new session: not ours to kill
        return None
    return pgid


def kill_group(pgid: int | None) -> None:
    """SIGKILL a child's whole process group (it was started in a new session)."""
    if pgid is None:
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def pipe_ids(proc) -> set[str]:
    """`pipe:[inode]` of the child's stdin/stdout/stderr, as /proc/PID/fd links show them."""
    ids = set()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            ids.add(f"pipe:[{os.fstat(stream.fileno()).st_ino}]")
        except (AttributeError, OSError, ValueError):
            pass
    return ids


def escaped(token: bytes, pipes: set[str]) -> list[int]:
    """Live processes (other than us) that carry `token` in their environ or hold one of `pipes`."""
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found  # no /proc: only the group kill applies
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if token in handle.read():
                    found.append(int(entry))
                    continue
            if pipes:
                fds = f"/proc/{entry}/fd"
                if any(_readlink(f"{fds}/{fd}") in pipes for fd in os.listdir(fds)):
                    found.append(int(entry))
        except OSError:  # gone, or not ours to look at
            continue
    return found


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def kill_escaped(token: bytes, pipes: set[str]) -> None:
    """SIGKILL every descendant that left the child's process group (see the module doc).

    Repeated until a pass finds nothing, so a process forking while we look is caught too.
    """
    for _ in range(20):
        pids = escaped(token, pipes)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)  # let the killed go (a zombie is skipped: its environ reads empty)


