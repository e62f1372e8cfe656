"""The batch: every submission graded in a process of its own, several at a time.

Each submission becomes exactly one `Row`, whatever happens to it:

    graded      the checks ran
    cannot-start the lab could not start (its package does not import): no check ran;
                the note is the cause in one line, and the grader's result is kept
    not-a-lab   no grading was started: the directory is empty or lacks the agent's
                package or an exercise file of the day
    timed-out   the grading outlived the wall limit: it and every process it started
                were killed (reap.py)
    crashed     the grading process ended without a result (killed, or the checks
                could not run at all); the note says how

A worker (worker.py) is started with the grader's own interpreter, in a new session,
from an empty scratch directory, and writes its result to a file of the batch's
scratch directory. Nothing is read from its stdout. With `Settings.sandbox` it runs in a
fresh PID namespace of its own (grader/spawn/sandbox.py): unshare leads the new session, the
namespace's init and the worker are in its group, and the wall-limit kill (reap.py, which
reads the host's /proc) takes init and with it the whole namespace.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from grader import i18n
import grader
from grader.classroom import reap
from grader.classroom.submissions import Submission, seed_for
from grader.course import Course, Day
from grader.engine import not_a_lab
from grader.i18n import word
from grader.spawn import sandbox as sandboxing

GRADED, CANNOT_START, NOT_A_LAB, TIMED_OUT, CRASHED = "graded", "cannot-start", "not-a-lab", "timed-out", "crashed"
OUTCOMES = (GRADED, CANNOT_START, NOT_A_LAB, TIMED_OUT, CRASHED)
DEFAULT_TIMEOUT = 600.0  # seconds of wall time per submission: a healthy day-07 grading needs ~10
_EVIDENCE_BYTES = 4096   # of a crashed worker's stderr, for its note


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return max(os.cpu_count() or 1, 1)


@dataclass
class Row:
    """One submission's line in the gradebook. `result` is `DayResult.to_dict()` when graded."""

    name: str
    submission: str
    seed: int
    outcome: str
    note: str = ""
    wall: float = 0.0
    started: float = 0.0        # epoch seconds the grading process started (0: none was)
    result: dict | None = None

    def to_dict(self) -> dict:
        return {"name": self.name, "submission": self.submission, "seed": self.seed, "outcome": self.outcome,
                "note": self.note, "wall_seconds": self.wall, "started": self.started, "result": self.result}

    @classmethod
    def from_dict(cls, data: dict) -> "Row":
        return cls(name=str(data["name"]), submission=str(data.get("submission", "")), seed=int(data["seed"]),
                   outcome=str(data["outcome"]), note=str(data.get("note") or ""),
                   wall=float(data.get("wall_seconds") or 0.0), started=float(data.get("started") or 0.0),
                   result=data.get("result"))


@dataclass
class Settings:
    course: Course
    day: Day
    batch_seed: int
    jobs: int
    timeout: float
    only: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)  # taken once, in the calling thread
    sandbox: bool = False   # each grading in a fresh PID namespace (the caller made sure one can be made)

    def worker_env(self, tmp: Path) -> dict[str, str]:
        env = dict(self.env, TMPDIR=str(tmp))
        kit = str(Path(grader.__file__).resolve().parent.parent)  # the worker imports this very grader
        env["PYTHONPATH"] = kit + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("PYTEST_CURRENT_TEST", None)
        return env


class Interrupted(KeyboardInterrupt):
    """Ctrl-C: every grading process was stopped; `rows` holds those finished before."""

    def __init__(self, rows: list[Row]):
        super().__init__()
        self.rows = rows


class _Running:
    """The grading processes alive now, so Ctrl-C can stop every one of them."""

    def __init__(self):
        self.lock = threading.Lock()
        self.cancelled = False
        self.procs: dict[int, subprocess.Popen] = {}

    def start(self, argv, **options) -> subprocess.Popen | None:
        with self.lock:
            if self.cancelled:
                return None
            proc = subprocess.Popen(argv, **options)
            self.procs[proc.pid] = proc
            return proc

    def done(self, proc: subprocess.Popen) -> None:
        with self.lock:
            self.procs.pop(proc.pid, None)

    def stop_all(self) -> None:
        with self.lock:
            self.cancelled = True
            procs = list(self.procs.values())
        for proc in procs:
            reap.kill_tree(proc.pid)


def _exited(pid: int) -> None:
    """Wait until `pid` has exited, without reaping it: its pid (and group id) stay ours."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        pass


def _tail(path: Path) -> str:
    """The last non-empty line of a worker's stderr (a traceback ends with its exception)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(handle.tell() - _EVIDENCE_BYTES, 0))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _crash_note(returncode: int, stderr: Path) -> str:
    last = _tail(stderr)
    evidence = word("grade.evidence", line=last) if last else ""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        return word("grade.note_signal", signal=name, evidence=evidence)
    return word("grade.note_status", status=returncode, evidence=evidence)


def _not_a_lab(settings: Settings, submission: Submission) -> str | None:
    path = submission.path
    try:
        empty = not any(path.iterdir())
    except OSError as exc:
        return word("grade.note_unreadable", why=exc.strerror or str(exc))
    if empty:
        return word("grade.note_empty")
    problem = not_a_lab(settings.course, settings.day, path)
    return word("grade.note_not_a_lab", why=problem) if problem else None


def not_graded(settings: Settings, submission: Submission) -> Row | None:
    """The row of a submission that is not a lab (no grading process needed), else None."""
    problem = _not_a_lab(settings, submission)
    if not problem:
        return None
    return Row(submission.name, str(submission.path), seed_for(settings.batch_seed, submission.name), NOT_A_LAB,
               problem)


def grade_one(settings: Settings, submission: Submission, scratch: Path, running: _Running) -> Row | None:
    """Grade one submission in a worker; None only when the batch was cancelled first."""
    row = not_graded(settings, submission)
    if row is not None:
        return row
    row = Row(submission.name, str(submission.path), seed_for(settings.batch_seed, submission.name), GRADED)
    home = Path(tempfile.mkdtemp(prefix="worker-", dir=scratch))
    out, cwd, tmp = home / "result.json", home / "cwd", home / "tmp"
    cwd.mkdir()
    tmp.mkdir()  # the grading's run root goes here: removed with the batch's scratch even if it is killed
    course = Path(settings.course.root) / "course.toml"
    argv = [sys.executable, "-m", "grader.classroom.worker", "--course", str(course),
            "--day", settings.day.id, "--lab", str(submission.path), "--seed", str(row.seed), "--out", str(out),
            "--lang", i18n.language(), *[arg for check in settings.only for arg in ("--only", check)]]
    if settings.sandbox:
        argv = sandboxing.wrap(argv)
    with open(home / "stdout", "wb") as stdout, open(home / "stderr", "wb") as stderr:
        row.started = time.time()
        began = time.perf_counter()
        proc = running.start(argv, cwd=cwd, env=settings.worker_env(tmp), stdin=subprocess.DEVNULL, stdout=stdout,
                             stderr=stderr, start_new_session=True)
        if proc is None:
            return None
        waiter = threading.Thread(target=_exited, args=(proc.pid,), daemon=True)
        waiter.start()
        waiter.join(settings.timeout)
        timed_out = waiter.is_alive()
        # Exited or not, it is not reaped yet: its group id cannot have been reused.
        reap.kill_tree(proc.pid)
        returncode = proc.wait()
        running.done(proc)
        if settings.sandbox:  # init says 128+N for a worker killed by signal N
            returncode = sandboxing.status(returncode)
        row.wall = round(time.perf_counter() - began, 3)
    if timed_out:
        row.outcome, row.note = TIMED_OUT, word("grade.note_timed_out", seconds=f"{settings.timeout:g}")
        return row
    try:
        answer = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        answer = None
    if isinstance(answer, dict) and isinstance(answer.get("result"), dict) and returncode == 0:
        row.outcome, row.result = GRADED, answer["result"]
        row.note = ""
        if answer["result"].get("blocked"):  # one rule for a lab that cannot start: its own outcome, one line
            row.outcome, row.note = CANNOT_START, one_line(answer["result"]["blocked"])
    elif isinstance(answer, dict) and isinstance(answer.get("error"), str):
        row.outcome, row.note = CRASHED, word("grade.note_error", why=answer["error"].splitlines()[0][:300])
    else:
        row.outcome, row.note = CRASHED, _crash_note(returncode, home / "stderr")
    return row


def one_line(text: str, most: int = 500) -> str:
    """A cause as one line: its lines joined, white space squeezed, cut at `most` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= most else line[:most - 1] + "…"


def run_batch(settings: Settings, submissions: list[Submission],
              on_row: Callable[[Row, int], None] | None = None) -> list[Row]:
    """Grade every submission, `settings.jobs` at a time; rows sorted by name.

    `on_row(row, finished)` is called in the calling thread as each one finishes.
    Ctrl-C stops every grading process and raises `Interrupted`.
    """
    chosen = settings.env.get("TMPDIR")  # the caller's, even if this process read another one first
    scratch = Path(tempfile.mkdtemp(prefix="grader-batch-", dir=chosen if chosen and Path(chosen).is_dir() else None))
    running = _Running()
    rows: list[Row] = []
    pool = ThreadPoolExecutor(max_workers=max(settings.jobs, 1), thread_name_prefix="grade")
    try:
        labs = []
        for one in submissions:  # what is not a lab is known at once: its row comes first
            row = not_graded(settings, one)
            if row is None:
                labs.append(one)
                continue
            rows.append(row)
            if on_row is not None:
                on_row(row, len(rows))
        futures = {pool.submit(grade_one, settings, one, scratch, running): one for one in labs}
        for future in as_completed(futures):
            try:
                row = future.result()
            except Exception as exc:  # a fault of the batch itself (a full disk ...): still one row
                one = futures[future]
                row = Row(one.name, str(one.path), seed_for(settings.batch_seed, one.name), CRASHED,
                          word("grade.note_batch", why=f"{type(exc).__name__}: {exc}"[:300]))
            if row is None:
                continue
            rows.append(row)
            if on_row is not None:
                on_row(row, len(rows))
    except KeyboardInterrupt:
        running.stop_all()
        pool.shutdown(wait=True, cancel_futures=True)
        raise Interrupted(sorted(rows, key=lambda r: r.name)) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return sorted(rows, key=lambda r: r.name)
