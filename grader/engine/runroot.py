"""A grading run's scratch root (`$TMPDIR/tmp*`, named as any program's temporary directory, so
nothing a lab child is handed names the grader): made, held, removed, swept.

The engine removes its run root when the grading ends, however it ends in Python
(a normal end, an exception in a check, Ctrl-C, SIGTERM). A grader killed outright
(SIGKILL, an OOM kill, a CI job's timeout) cannot; the next grading removes such a
root once it can prove nobody uses it:

* a live grading holds an exclusive flock on the root's lock file for as long as it
  runs (its parallel workers share the lock: they are forks of it), so a lock that
  can be taken means the grading that made the root is gone;
* and no live process has its working directory or an open file inside the root
  (a lab child is killed with its grading, see grader/spawn/groups.py, but a root
  still in use is never pulled from under anyone).

The lock file is made under a temporary name, locked, and only then renamed into
place, so a sweeper never finds a lock file it could take before its owner holds it.
A run kept with `--keep` drops its lock file at the end: a kept root is never swept.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

LOCK = ".grading.lock"
PREFIX = "tmp"  # tempfile's own shape; only a directory holding LOCK, of this user, is ever swept


class RunRoot:
    """A fresh run root, locked for as long as this grading lives."""

    def __init__(self, directory: str | None = None):
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX, dir=directory)).resolve()
        staging = self.path / f"{LOCK}.{os.getpid()}"
        self._fd = os.open(staging, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        os.rename(staging, self.path / LOCK)

    def release(self, *, remove: bool) -> None:
        """Remove the root (or, kept, its lock file) and let go of the lock."""
        if remove:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            try:
                (self.path / LOCK).unlink()
            except OSError:
                pass
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def _in_use(roots: list[Path]) -> set[Path]:
    """The roots some live process has its cwd, root or an open file in (from /proc)."""
    used: set[Path] = set()
    if not roots or not os.path.isdir("/proc"):
        return used
    prefixes = [(str(root) + os.sep, root) for root in roots]

    def mark(target: str) -> None:
        for prefix, root in prefixes:
            if target == prefix[:-1] or target.startswith(prefix):
                used.add(root)

    me = str(os.getpid())  # the sweeper itself holds the lock files open
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == me:
            continue
        base = f"/proc/{entry}"
        for link in ("cwd", "root"):
            try:
                mark(os.readlink(f"{base}/{link}"))
            except OSError:
                pass
        try:
            fds = os.listdir(f"{base}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                mark(os.readlink(f"{base}/fd/{fd}"))
            except OSError:
                pass
    return used


def _kill_stranded(roots: list[Path]) -> list[int]:
    """Kill the views a dead grading left running: a bwrap whose command line binds one of
    `roots` (a run root no grading holds any more). The kernel kills a lab child with its
    grading (PR_SET_PDEATHSIG, bwrap's --die-with-parent), but bwrap sets the second in its
    inner process only after its clone: a grading killed in between strands that process,
    which then runs the lab. It is the PID namespace's init: killing it ends all of the view."""
    killed: list[int] = []
    if not roots or not os.path.isdir("/proc"):
        return killed
    binds = {os.fsencode(str(root / "work")) for root in roots}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
            if os.stat(f"/proc/{entry}").st_uid != os.getuid():
                continue
        except OSError:
            continue
        if not argv or os.path.basename(argv[0]) != b"bwrap":
            continue
        if any(argv[i] == b"--bind" and argv[i + 1] in binds for i in range(len(argv) - 1)):
            try:
                os.kill(int(entry), signal.SIGKILL)
                killed.append(int(entry))
            except OSError:
                pass
    if killed:  # a namespace's teardown takes a moment: let _in_use see it gone
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}") and not _zombie(pid)
                                                  for pid in killed):
            time.sleep(0.02)
    return killed


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def sweep(directory: str | None = None) -> list[Path]:
    """Remove the run roots under `directory` (default: the temporary directory) whose grading
    is gone and which no live process uses, once the views that grading stranded are killed
    (`_kill_stranded`); returns those removed."""
    base = Path(directory or tempfile.gettempdir())
    candidates: list[tuple[Path, int]] = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return []
    for root in entries:
        if not root.name.startswith(PREFIX):
            continue
        try:
            if root.is_symlink() or not root.is_dir() or root.stat().st_uid != os.getuid():
                continue
            fd = os.open(root / LOCK, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue  # no lock file: kept, or not a run root of this grader
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # a live grading holds it
            continue
        candidates.append((root, fd))
    removed = []
    _kill_stranded([root for root, _ in candidates])
    used = _in_use([root for root, _ in candidates])
    for root, fd in candidates:
        try:
            if root not in used:
                shutil.rmtree(root, ignore_errors=True)
                removed.append(root)
        finally:
            os.close(fd)
    return removed
