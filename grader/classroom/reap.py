"""Stopping a grading process together with every process it started.

A grading process (worker.py) leads a session of its own, but the lab's children it
starts lead sessions of their own too (grader/spawn/groups.py), so one group kill
misses them. On Linux the whole tree is found through /proc instead: the grading
process is frozen first (SIGSTOP to its group, so it starts nothing new and no orphan
loses its place in the tree), then every descendant's process group and every
process carrying one of their spawn tokens is killed, pass after pass until none is
left, and the grading process last. The worker is its descendants' subreaper (see
worker.py), so a double-forked grandchild hangs under it rather than under init and
is found the same way. Without /proc only the group kill applies.
"""

from __future__ import annotations

import os
import signal
import time

from grader.spawn import TOKEN_VAR
from grader.spawn.groups import kill_escaped

_PASSES = 20


def _parents() -> dict[int, int]:
    """pid -> parent pid of every live process /proc shows (no zombies; empty without /proc)."""
    parents = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return parents
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[-1].split()  # the name in parentheses may hold anything
        if len(fields) > 1 and fields[0] not in (b"Z", b"X"):  # a zombie is dead already
            parents[int(entry)] = int(fields[1])
    return parents


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid` (not `pid` itself), parents before children."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(0), []):
            if child not in found and child != pid:
                found.append(child)
                queue.append(child)
    return found


def _tokens(pids: list[int]) -> set[bytes]:
    """The spawn tokens (grader/spawn/child.py) the given processes carry in their environment."""
    tokens = set()
    prefix = f"{TOKEN_VAR}=".encode()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                for item in handle.read().split(b"\0"):
                    if item.startswith(prefix):
                        tokens.add(item)
        except OSError:
            continue
    return tokens


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
    """SIGKILL everything under `pid` (and what left its groups but kept a spawn token)."""
    tokens: set[bytes] = set()
    for _ in range(_PASSES):
        found = descendants(pid)
        tokens |= _tokens(found)
        if not found:
            break
        for child in found:
            _kill(child)
        time.sleep(0.01)
    for token in tokens:
        kill_escaped(token, set())


def kill_tree(pid: int) -> None:
    """Stop the grading process `pid` (the leader of its own session) and all it started."""
    _signal_group(pid, signal.SIGSTOP)
    kill_descendants(pid)
    _signal_group(pid, signal.SIGKILL)
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
