"""Stopping a grading process together with every process it started.

A grading process (worker.py) leads a session of its own, but the lab's children it
starts lead sessions of their own too (grader/spawn/groups.py), so one group kill
misses them. On Linux the whole tree is found through /proc instead: the grading
process is frozen first (SIGSTOP to its group, so it starts nothing new and no orphan
loses its place in the tree), then every descendant and its process group is killed,
pass after pass until none is left, and the grading process last. The worker is its
descendants' subreaper (see worker.py), so a double-forked grandchild hangs under it
rather than under init and is found the same way. Without /proc only the group kill applies.
"""

from __future__ import annotations

import os
import signal
import time

from grader.spawn.groups import descendants

_PASSES = 20


def _signal_group(pgid: int, number: int) -> None:
    if pgid <= 1 or pgid == os.getpgrp():
        return
    try:
        os.killpg(pgid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _kill(pid: int) -> None:
    try:
        pgid = os.getpgid(pid)
    except OSError:
        pgid = 0
    _signal_group(pgid, signal.SIGKILL)
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_descendants(pid: int) -> None:
    """SIGKILL everything under `pid`, pass after pass until a pass finds nothing."""
    for _ in range(_PASSES):
        found = descendants(pid)
        if not found:
            break
        for child in found:
            _kill(child)
        time.sleep(0.01)


def kill_tree(pid: int) -> None:
    """Stop the grading process `pid` (the leader of its own session) and all it started."""
    _signal_group(pid, signal.SIGSTOP)
    kill_descendants(pid)
    _signal_group(pid, signal.SIGKILL)
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
