"""Process groups, sessions and process trees: finding and killing a child's descendants.

Every child starts in a new session (its own process group), so the grader can kill
it *and* anything it started (a test suite, a shell) with one SIGKILL to the group.
A student's code may start a process in a session of its own
(`start_new_session=True`, a double fork): the group kill misses it. Descendants are
therefore found from outside, on Linux from /proc, never from anything the lab can
write (its environment, files):

* the child's process tree (every process whose chain of parents leads to it);
* every process of its session and of its process group (a process that left the
  tree when its parent died but kept the session);
* every process holding one of the child's pipes;
* orphans: a process that is the grading's subreaper (`become_subreaper`, set by the
  grading processes and the parallel workers) adopts every orphan of its children,
  which would otherwise go to init. In such a process (`adopting()`), any adopted
  process in a session other than the grader's that is not a live child of ours was
  started by a lab child and is killed with it.

Every lab child also gets PR_SET_PDEATHSIG (SIGKILL) before it execs: when the thread
that started it ends, or the whole grader is killed (even with SIGKILL), the kernel
kills the child. A child therefore lives no longer than the thread that started it;
the grader starts children from threads that wait for them.

Kills are confirmed: `kill_all` returns the pids that were still alive after the
kill (normally none), and the report names them (grader/spawn/child.py).

Without /proc (macOS) only the group kill applies.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_LINUX = sys.platform.startswith("linux")

_live: set[int] = set()          # pids of children this process started and has not seen die
_live_lock = threading.RLock()   # held from before a child is forked until it is in _live, and
                                 # while /proc is read for orphans: a child being started in another
                                 # thread is never taken for an adopted orphan
_adopting = False                # this process is a subreaper whose every adopted orphan is a lab's


# --------------------------------------------------------------------------- the kernel's help

def _prctl(option: int, value: int) -> bool:
    if not _LINUX:
        return False
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of init (Linux only).
    The setting is per process: a forked child (a parallel worker) sets it again."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def adopt_orphans() -> None:
    """This process grades and nothing else: it becomes its descendants' subreaper, and an
    adopted orphan in a session of its own is killed with the children (see the module doc).
    Called by the grading commands and the parallel workers, never by a process that starts
    other children in sessions of their own (a test suite, `grader watch`'s main process)."""
    global _adopting
    _adopting = become_subreaper() and os.path.isdir("/proc")


def adopting() -> bool:
    return _adopting


def die_with_parent_preexec():
    """A `preexec_fn` for Popen: PR_SET_PDEATHSIG=SIGKILL in the child before it execs, and
    exit at once if the parent is already gone (it died between fork and prctl). None off Linux."""
    if not _LINUX:
        return None
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(137)

    return preexec


def spawning():
    """Hold this while starting a child and registering it (`register`)."""
    return _live_lock


def register(pid: int) -> None:
    with _live_lock:
        _live.add(pid)


def unregister(pid: int) -> None:
    with _live_lock:
        _live.discard(pid)


# --------------------------------------------------------------------------- /proc

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


def pipe_ids(proc) -> set[str]:
    """`pipe:[inode]` of the child's stdin/stdout/stderr, as /proc/PID/fd links show them."""
    ids = set()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            ids.add(f"pipe:[{os.fstat(stream.fileno()).st_ino}]")
        except (AttributeError, OSError, ValueError):
            pass
    return ids


def _stat(pid: int | str) -> tuple[str, int, int, int] | None:
    """(state, ppid, pgid, sid) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat.rsplit(b")", 1)[-1].split()  # the name in parentheses may hold anything
    try:
        return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def processes() -> dict[int, tuple[str, int, int, int]]:
    """pid -> (state, ppid, pgid, sid) of every process /proc shows (empty without /proc)."""
    found = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if entry.isdigit():
            stat = _stat(entry)
            if stat is not None:
                found[int(entry)] = stat
    return found


def _dead(state: str) -> bool:
    return state in ("Z", "X", "x")


def descendants(pid: int, table: dict | None = None) -> list[int]:
    """Every live descendant of `pid` (not `pid` itself), parents before children."""
    table = processes() if table is None else table
    children: dict[int, list[int]] = {}
    for child, (state, parent, _, _) in table.items():
        if not _dead(state):
            children.setdefault(parent, []).append(child)
    found, queue, seen = [], [pid], {pid}
    while queue:
        for child in children.get(queue.pop(0), []):
            if child not in seen:
                seen.add(child)
                found.append(child)
                queue.append(child)
    return found


def _holds(pid: int, pipes: set[str]) -> bool:
    fds = f"/proc/{pid}/fd"
    try:
        return any(_readlink(f"{fds}/{fd}") in pipes for fd in os.listdir(fds))
    except OSError:
        return False


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def members(pid: int | None, pgid: int | None, pipes: set[str]) -> list[int]:
    """The live processes that belong to the child `pid` (see the module doc), never this
    process nor its own group or session."""
    with _live_lock:
        table = processes()
        live = set(_live)
    me, my_session = os.getpid(), os.getsid(0)
    found: list[int] = []
    if pid is not None:
        found += descendants(pid, table)
    for other, (state, parent, group, session) in table.items():
        if _dead(state) or other == me or other in found:
            continue
        if pgid is not None and (group == pgid or session == pgid):
            found.append(other)
        elif _adopting and parent == me and session != my_session and other not in live:
            found.append(other)  # an orphan a lab child left behind (only ever adopted by us)
        elif pipes and session != my_session and _holds(other, pipes):  # (the own session is left out below)
            found.append(other)
    # The grader's own session (its workers, its own helpers) is never a lab's: a lab child
    # leads a session of its own, and no descendant of it can join another session's group.
    return [p for p in found if p != me and table.get(p, ("", 0, 0, my_session))[3] != my_session]


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie is dead: it only waits to be reaped)."""
    if os.path.isdir("/proc"):
        stat = _stat(pid)
        return stat is not None and not _dead(stat[0])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reap_adopted(pids) -> None:
    """Collect the exit status of the adopted orphans among `pids` (they are our children now;
    a live child of ours is left to the Popen that waits for it)."""
    with _live_lock:
        live = set(_live)
    for pid in pids:
        if pid in live:
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def kill_group(pgid: int | None) -> None:
    """SIGKILL a child's whole process group (it was started in a new session)."""
    if pgid is None:
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_all(pid: int | None, pgid: int | None, pipes: set[str], *, confirm: float = 2.0) -> list[int]:
    """SIGKILL the child's group and every process that belongs to it (`members`), pass after
    pass until a pass finds none (a process forking while we look is caught too), then wait
    up to `confirm` seconds for each to be gone. Returns the pids still alive after that.

    The group is stopped first (SIGSTOP), so no member forks or exits mid-way and leaves
    an orphan behind that no pass can place."""
    if pgid is not None:
        try:
            os.killpg(pgid, signal.SIGSTOP)
        except (ProcessLookupError, PermissionError):
            pass
    killed: set[int] = set()
    for _ in range(20):
        kill_group(pgid)
        found = [p for p in members(pid, pgid, pipes) if p not in killed]  # the killed are waited for below
        if not found:
            break
        for other in found:
            try:
                os.kill(other, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            killed.add(other)
        time.sleep(0.005)
    if pid is not None:
        killed.discard(pid)  # the child itself: its Popen reaps it and says whether it went
    deadline = time.monotonic() + confirm
    while True:
        _reap_adopted(killed)
        left = [p for p in sorted(killed) if alive(p)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.01)


def sweep_orphans() -> list[int]:
    """In an adopting process: kill every adopted orphan still alive (the end of a grading or
    of a worker). Returns the pids that did not go."""
    if not _adopting:
        return []
    return kill_all(None, None, set())
