"""Run roots: locked while their grading lives, removed at its end, swept once provably orphaned."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from grader.engine import runroot
from grader.spawn import ChildResult, ChildTimeout

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sweep reads /proc")

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_root_is_locked_while_its_grading_lives_and_removed_at_its_end(tmp_path):
    root = runroot.RunRoot(str(tmp_path))
    assert root.path.name.startswith(runroot.PREFIX) and "grader" not in root.path.name and (root.path / runroot.LOCK).is_file()
    assert runroot.sweep(str(tmp_path)) == []  # a live grading's root: its lock cannot be taken
    assert root.path.is_dir()
    root.release(remove=True)
    assert not root.path.exists()


def test_a_kept_root_loses_its_lock_file_and_is_never_swept(tmp_path):
    root = runroot.RunRoot(str(tmp_path))
    root.release(remove=False)
    assert root.path.is_dir() and not (root.path / runroot.LOCK).exists()
    assert runroot.sweep(str(tmp_path)) == []
    assert root.path.is_dir()


def test_an_orphaned_root_is_swept_and_one_held_elsewhere_or_in_use_is_not(tmp_path):
    orphaned, held, used = (runroot.RunRoot(str(tmp_path)) for _ in range(3))
    for root in (orphaned, held, used):  # as if their graders had been killed: nobody holds the lock
        root._fd, fd = None, root._fd
        os.close(fd)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(held.path / runroot.LOCK)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    inside = subprocess.Popen([sys.executable, "-c", "import sys; print('in', flush=True); sys.stdin.read()"],
                              cwd=used.path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n" and inside.stdout.readline() == "in\n"
        assert runroot.sweep(str(tmp_path)) == [orphaned.path]
        assert not orphaned.path.exists() and held.path.is_dir() and used.path.is_dir()
    finally:
        for proc in (holder, inside):
            proc.stdin.close()
            proc.wait(10)
    assert sorted(runroot.sweep(str(tmp_path))) == sorted([held.path, used.path])  # now nobody uses them


def test_a_directory_of_another_kind_is_never_swept(tmp_path):
    (tmp_path / "grader-verify-day-07-x").mkdir()
    (tmp_path / "tmp_another_program").mkdir()  # the same shape of name, but no lock file: not a run root
    assert runroot.sweep(str(tmp_path)) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grader-verify-day-07-x", "tmp_another_program"]


def _result(survivors=()) -> ChildResult:
    return ChildResult(argv=("python", "-c", "pass"), cwd="/tmp", returncode=None, stdout="", stderr="",
                       duration=3.0, timed_out=True, shown="python -m mca hi", survivors=survivors, stopped=True)


def test_was_stopped_only_for_a_child_confirmed_gone_else_the_pids_are_named():
    assert str(ChildTimeout(_result(), 3)) == "`python -m mca hi` did not finish within 3 s and was stopped"
    text = str(ChildTimeout(_result((4321, 4322)), 3))
    assert "was stopped" not in text and "4321, 4322" in text and "still running" in text


STRANDED = "import sys, time\nprint('up', flush=True)\nwhile True: time.sleep(1)\n"


def test_a_view_a_dead_grading_stranded_is_killed_then_its_root_swept(tmp_path):
    """A bwrap that binds a dead grading's run root (bwrap's own setup race strands one) is
    killed by the next sweep, and the root removed; a bwrap binding a live grading's root and
    another program naming the dead root are left alone."""
    dead, live = runroot.RunRoot(str(tmp_path)), runroot.RunRoot(str(tmp_path))
    dead._fd, fd = None, dead._fd
    os.close(fd)  # as if its grader had been killed
    # what /proc shows of a stranded view: a bwrap whose --bind is the root's work/ (argv[0] named so)
    started = [subprocess.Popen(["bwrap", "-c", STRANDED, "--bind", str(root.path / "work"), "/root/work"],
                                executable=sys.executable, stdout=subprocess.PIPE, text=True) for root in (dead, live)]
    other = subprocess.Popen([sys.executable, "-c", STRANDED, "--bind", str(dead.path / "work")],
                             stdout=subprocess.PIPE, text=True)
    try:
        for proc in (*started, other):
            assert proc.stdout.readline() == "up\n"
        assert runroot.sweep(str(tmp_path)) == [dead.path]
        assert started[0].wait(10) == -9 and not dead.path.exists()
        assert started[1].poll() is None and other.poll() is None and live.path.is_dir()
    finally:
        for proc in (*started, other):
            proc.kill()
            proc.wait(10)
        live.release(remove=True)
