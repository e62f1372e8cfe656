"""Shared helpers of the benchmarks: timing, synthetic logs, children, result rows.

Standard library only. The agent's code is the reference solution of day 7; it is
imported from ``solutions/day-07-session-resume`` (put on ``sys.path`` by
``use_solution()``) or run in child processes with that directory on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solutions" / "day-07-session-resume"
SESSION_ID = "s-20261129-103309-7300"  # any well-formed id; the files are ours
if str(ROOT) not in sys.path:  # the grader's log generator makes the logs measured here
    sys.path.insert(0, str(ROOT))


def use_solution() -> None:
    """Make ``import mca`` load the reference solution of day 7."""
    sys.dont_write_bytecode = True  # no __pycache__ in the repository
    path = str(SOLUTION)
    if path not in sys.path:
        sys.path.insert(0, path)


# --------------------------------------------------------------------------- timing

# The floor that any small command line in this style pays: an interpreter start and the
# standard library's usual first imports. Speed goals are counted in it (a "floor"),
# measured in the same run as what it is compared with, so a noisy machine moves both.
FLOOR_CODE = "import argparse, dataclasses, json, pathlib"


def floor_argv(python) -> list:
    return [python, "-S", "-c", FLOOR_CODE]


def median(values) -> float:
    return statistics.median(values)


def time_ns(function, repeat: int, warmup: int = 1) -> list[int]:
    """Wall times of ``function()`` in ns, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        function()
        times.append(time.perf_counter_ns() - start)
    return times


def fmt_time(ns: float) -> str:
    """A duration with a sensible unit: 12.3 us, 4.56 ms, 1.23 s."""
    if ns != ns:  # NaN: not measured in this mode
        return "n/a"
    if ns < 0:
        return "-" + fmt_time(-ns)
    if ns < 1_000_000:
        return f"{ns / 1e3:.1f} us"
    if ns < 1_000_000_000:
        return f"{ns / 1e6:.1f} ms"
    return f"{ns / 1e9:.2f} s"


def fmt_mb(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:.1f} MB"


# --------------------------------------------------------------------------- synthetic logs

def round1():
    """A round-1 log made by the grader's generator from a fixed seed (the same every run)."""
    import random

    from grader.checkkit.loggen import round1_log
    return round1_log(random.Random("benchmarks"))


def write_round1(directory: Path) -> Path:
    log = round1()
    return log.write(directory)


def _round1_events() -> list[dict]:
    """The eight events of a round-1 log: system, user, a tool round, usage, the answer."""
    return round1().events


def make_log(path: Path, events: int) -> Path:
    """Write a valid log of exactly ``events`` events at ``path``.

    It is built from generated round-1 lines (non-ASCII text included): the system
    message, then round 1's seven events (user, usage, assistant with a tool call,
    tool_end, tool result, usage, assistant) over and over, with seq renumbered. The
    remainder is filled with ``usage`` events, so the last *message* is always an
    assistant reply without tool calls: the log ends at a clean boundary, and
    resume keeps appending to it (no recovery fork).
    """
    template = _round1_events()
    system, rnd = template[0], template[1:]
    lines = []
    seq = 0

    def add(event: dict) -> None:
        nonlocal seq
        seq += 1
        lines.append(json.dumps({**event, "seq": seq}, ensure_ascii=False))

    add(system)
    while seq + len(rnd) <= events:
        for event in rnd:
            add(event)
    while seq < events:
        add(rnd[1])  # a usage event
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    return path


def user_seq_near(events: int, target: int) -> int:
    """The seq of the user message (a fork point) of ``make_log(events)`` nearest ``target``."""
    # user messages are at seq 2, 9, 16, ... (1 + 7k + 1)
    k = max(0, round((target - 2) / 7))
    seq = 2 + 7 * k
    while seq > events:
        seq -= 7
    return seq


# --------------------------------------------------------------------------- children

# Children cache their bytecode here, not beside the sources: a student's own runs
# would reuse compiled modules too, and nothing is written into the repository.
PYCACHE: Path | None = None


def child_env(extra: dict | None = None, *, bytecode: bool | None = None) -> dict:
    """The environment of a child: the solution importable, the mock model, no MCA_*.

    ``bytecode=True``: compiled modules are cached under PYCACHE (as on a student's
    machine; the first run fills it, so callers warm up). ``bytecode=False``:
    PYTHONDONTWRITEBYTECODE=1, every start compiles the lab from source (what the
    grader's children do). The default is True when PYCACHE is set (full runs)
    and False otherwise (--quick, which has no warm-up runs).
    """
    if bytecode is None:
        bytecode = PYCACHE is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCA_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"MOCK": "1", "NO_COLOR": "1", "PYTHONPATH": str(SOLUTION)})
    if bytecode and PYCACHE is not None:
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    else:  # never write __pycache__ into the repository
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    env.update(extra or {})
    return env


@dataclass
class ChildRun:
    status: int
    wall: float        # seconds, from just before the fork to the reap
    maxrss_kib: int    # the child's own peak RSS (ru_maxrss, KiB on Linux)
    stdout: str
    stderr: str
    cpu: float = 0.0   # seconds of user + system CPU of the child and the descendants it reaped


def run_child(argv, *, cwd, env=None, timeout: float = 120) -> ChildRun:
    """Run one child to completion, stdin closed, output to temp files.

    The child is reaped with ``os.wait4``, which also gives its own peak RSS. A
    timer kills it after ``timeout`` seconds (then the status is negative).
    """
    import tempfile
    import threading

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([str(a) for a in argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err)
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
        out.seek(0)
        err.seek(0)
        return ChildRun(proc.returncode, wall, usage.ru_maxrss,
                        out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                        usage.ru_utime + usage.ru_stime)


def check_ok(run: ChildRun, what: str) -> ChildRun:
    if run.status != 0:
        raise RuntimeError(f"{what} exited with {run.status}: {run.stderr.strip()[-500:]}")
    return run


# --------------------------------------------------------------------------- rows

@dataclass
class Row:
    """One line of the results table."""

    name: str       # stable id, also what the smoke test looks for
    what: str       # what is measured
    figure: str     # the measured figure
    baseline: str   # what it is compared with
    ratio: float | None
    goal: str       # e.g. "<= 1.2x"; "-" when the row only reports
    verdict: str    # "met", "missed", or "report"
    note: str = ""  # by how much and why, when missed; context otherwise

    @property
    def ratio_text(self) -> str:
        return "-" if self.ratio is None else f"{self.ratio:.2f}x"


def verdict(ratio: float, limit: float) -> str:
    return "met" if ratio <= limit else "missed"
