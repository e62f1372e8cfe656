"""No lab child outlives its grading, and no run root either, however the grading ends.

The lab here is day 7's, with an agent that never answers: `mca/__main__.py` starts with
`while True: pass` (or loops only when it is not asked for `--help`). Each grading is the
real command, `python -m grader check day-07 --lab LAB --json`, checks side by side, in a
session of its own, with TMPDIR pointing at a directory of the test's own: every run root
of the grading is under it, and every lab child has it on its command line (the graded
copy of the lab is there), so what a grading left behind is found by that path alone.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.engine import runroot
from grader.spawn import groups
from tests.hostile import hostile

pytestmark = hostile.linux_only

KIT = hostile.KIT
LOOPS = "while True: pass\n"
LOOPS_BUT_HELP = "import sys\nif '--help' not in sys.argv:\n    while True: pass\n"


def hanging_lab(base: Path, head: str) -> Path:
    lab = base / "lab" / "day-07-session-resume"
    shutil.copytree(KIT / "labs" / "day-07-session-resume", lab, ignore=shutil.ignore_patterns("__pycache__"))
    main = lab / "mca" / "__main__.py"
    main.write_text(head + main.read_text(encoding="utf-8"), encoding="utf-8")
    return lab


def environment(tmpdir: Path, scale: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST_", "MCA_", "GITHUB_"))}
    env.update(PYTHONPATH=str(KIT), PYTHONDONTWRITEBYTECODE="1", GRADER_COURSE=str(KIT / "course.toml"),
               GRADER_TIMEOUT_SCALE=scale, TMPDIR=str(tmpdir), NO_COLOR="1")
    return env


def start_grading(lab: Path, tmpdir: Path, cwd: Path, *, scale: str, jobs: str = "2") -> subprocess.Popen:
    tmpdir.mkdir(parents=True, exist_ok=True)
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "grader", "check", "day-07", "--lab", str(lab), "--json",
                             "--jobs", jobs], cwd=cwd, env=environment(tmpdir, scale), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def using(path: Path) -> list[int]:
    """Live processes with `path` in their command line, or their cwd inside it."""
    needle, found = str(path).encode(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                hit = needle in handle.read()
            if not hit:
                hit = os.readlink(f"/proc/{entry}/cwd").startswith(str(path))
        except OSError:
            continue
        if hit and groups.alive(int(entry)):
            found.append(int(entry))
    return found


# The kernel kills them at once (PR_SET_PDEATHSIG, bwrap's --die-with-parent); a PID namespace's
# teardown can still take seconds on a loaded machine. A limit for a leftover, not for speed.
GONE_WITHIN = 5.0


def gone_within(pids, seconds: float = GONE_WITHIN) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        left = [pid for pid in pids if groups.alive(pid)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.02)


def described(pids) -> list[str]:
    """What each leftover is: its command line, parent and state (read before it is killed)."""
    out = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                          if ":" in line)
            out.append(f"{pid} ppid {status.get('PPid', '?').strip()} {status.get('State', '?').strip()}: {cmd[:300]}")
        except OSError:
            out.append(f"{pid} (gone)")
    return out


def kill_leftovers(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def grade(lab: Path, tmpdir: Path, cwd: Path, *, scale: str) -> dict:
    proc = start_grading(lab, tmpdir, cwd, scale=scale)
    try:
        out, err = proc.communicate(timeout=hostile.HARD_LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the grading did not end within the hard limit")
    assert proc.returncode == 1, err.decode()[-2000:]
    return json.loads(out)


def assert_one_cause(report: dict) -> None:
    cause = report["cause"]
    assert cause and cause.startswith("the agent did not answer: `python -m mca --help` did not finish"), cause
    timeouts = [c for c in report["checks"] if c["status"] == "timeout"]
    assert timeouts, report
    assert {c["message"] for c in timeouts} == {cause}  # one cause, in every check that runs the agent
    others = [c for c in report["checks"] if c["status"] != "timeout"]
    assert others and all(cause not in c["message"] for c in others)  # the harness checks ran as usual
    assert {c["id"]: c["status"] for c in others}["append-is-incremental"] == "passed"


def test_an_agent_that_never_answers_is_one_cause_and_leaves_nothing_behind(tmp_path):
    lab = hanging_lab(tmp_path, LOOPS)
    tmpdir = tmp_path / "tmp"
    report = grade(lab, tmpdir, tmp_path / "cwd", scale="0.25")
    assert_one_cause(report)
    left = using(tmpdir)
    kill_leftovers(left)
    assert left == []
    assert [p.name for p in tmpdir.iterdir() if p.name.startswith(runroot.PREFIX)] == []


def test_the_text_report_says_the_cause_first_and_names_no_exercise(tmp_path):
    lab = hanging_lab(tmp_path, LOOPS)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    done = subprocess.run([sys.executable, "-m", "grader", "check", "day-07", "--lab", str(lab),
                           "--only", "session-id", "--only", "append-is-incremental"],
                          cwd=tmp_path, env=environment(tmpdir, "0.25"), capture_output=True, text=True,
                          timeout=hostile.HARD_LIMIT)
    lines = done.stdout.splitlines()
    assert lines[1].startswith("the agent did not answer: `python -m mca --help`"), done.stdout
    assert not any(line.startswith("next:") for line in lines), done.stdout
    assert "1/1 passed" not in done.stdout and "0/1 passed" in done.stdout


def test_every_run_timing_out_is_said_first_and_names_no_exercise(tmp_path):
    lab = hanging_lab(tmp_path, LOOPS_BUT_HELP)  # answers --help, then never finishes a run
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    done = subprocess.run([sys.executable, "-m", "grader", "check", "day-07", "--lab", str(lab), "--jobs", "2",
                           "--only", "session-id", "--only", "resume-unknown-id", "--only", "append-is-incremental"],
                          cwd=tmp_path, env=environment(tmpdir, "0.1"), capture_output=True, text=True,
                          timeout=hostile.HARD_LIMIT)
    lines = done.stdout.splitlines()
    assert lines[1].startswith("the agent did not finish any run: an endless loop?"), done.stdout
    assert not any(line.startswith("next:") for line in lines), done.stdout
    left = using(tmpdir)
    kill_leftovers(left)
    assert left == []


def test_a_grader_killed_with_sigkill_takes_every_lab_child_with_it(tmp_path):
    lab = hanging_lab(tmp_path, LOOPS_BUT_HELP)
    tmpdir = tmp_path / "tmp"
    proc = start_grading(lab, tmpdir, tmp_path / "cwd", scale="1")
    try:
        children = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until checks side by side each run the (looping) agent
            children = using(tmpdir)
            looping = [pid for pid in children if b"--yes" in Path(f"/proc/{pid}/cmdline").read_bytes()]
            if len(looping) >= 2:
                break
            time.sleep(0.1)
        assert len(looping) >= 2, children
        started = groups.descendants(proc.pid)  # the workers and every lab child, right now
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        watched = set(started) | set(using(tmpdir))
        stranded = gone_within(watched)
        # Its run root stayed behind (nobody could remove it); the next grading's sweep removes
        # it, and first kills a view bwrap's own setup race stranded (runroot._kill_stranded):
        # a grading killed between bwrap's clone and its inner --die-with-parent.
        roots = [p for p in tmpdir.iterdir() if (p / runroot.LOCK).exists()]
        assert len(roots) == 1 and (roots[0] / runroot.LOCK).is_file()
        what = described(stranded)
        assert all(": /usr/bin/bwrap " in line or "bwrap --unshare-pid" in line for line in what), what
        assert runroot.sweep(str(tmpdir)) == roots
        left = gone_within(watched | set(using(tmpdir)))
        what = described(left)
        kill_leftovers(left)
        assert left == [], what
        assert not roots[0].exists()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()


def test_a_grader_stopped_with_sigterm_stops_its_children_and_removes_its_run_root(tmp_path):
    lab = hanging_lab(tmp_path, LOOPS_BUT_HELP)
    tmpdir = tmp_path / "tmp"
    proc = start_grading(lab, tmpdir, tmp_path / "cwd", scale="1")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                b"--yes" in Path(f"/proc/{pid}/cmdline").read_bytes() for pid in using(tmpdir)):
            time.sleep(0.1)
        started = groups.descendants(proc.pid)
        assert started
        os.kill(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=30)
        left = gone_within(set(started) | set(using(tmpdir)))
        what = described(left)
        kill_leftovers(left)
        assert left == [], what
        assert proc.returncode == -signal.SIGTERM  # it still dies of the SIGTERM, once it has cleaned up
        assert [p.name for p in tmpdir.iterdir() if p.name.startswith(runroot.PREFIX)] == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


@pytest.mark.slow
def test_five_gradings_side_by_side_with_two_others_leave_nothing_behind(tmp_path):
    """At a load of 4 and more: two more gradings of the same lab run beside each one."""
    lab = hanging_lab(tmp_path, LOOPS)
    for attempt in range(5):
        base = tmp_path / f"run-{attempt}"
        others = [start_grading(lab, base / f"other-{n}" / "tmp", base / f"other-{n}" / "cwd", scale="0.25")
                  for n in range(2)]
        try:
            report = grade(lab, base / "tmp", base / "cwd", scale="0.25")
        finally:
            for other in others:
                other.communicate(timeout=hostile.HARD_LIMIT)
        assert_one_cause(report)
        for tmpdir in (base / "tmp", *(base / f"other-{n}" / "tmp" for n in range(2))):
            left = using(tmpdir)
            kill_leftovers(left)
            assert left == [], attempt
            assert [p.name for p in tmpdir.iterdir() if p.name.startswith(runroot.PREFIX)] == [], attempt
