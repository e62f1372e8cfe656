"""Benchmark 6: grading a class, `--jobs` = cores against one at a time.

``grader grade day-01 CLASS`` is run as an instructor runs it (the console script, in a
child process) on the same class twice over: with ``--jobs`` set to the cores this
process may use, and with ``--jobs 1``. The class is copies of the day-01 solution and
lab (half each), so every grading runs every check. The runs are interleaved A B B A
(one at a time, all at once, all at once, one at a time) so a change in the machine's
load during the benchmark weighs on both sides alike; the figure is the median of each.

The ratio is throughput: the wall time of one-at-a-time over that of the parallel run.
A grading spends much of its time waiting on its own children, so on N cores the
ratio can come near N (goal: 1.8x on 2 cores); on a machine shared with others it is
whatever the cores left to us allow, which the note says (the load average).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from bench_grader import grader_python
from common import ROOT, Row, child_env, fmt_time, median, run_child

DAY = "day-01"
SOLUTION = ROOT / "solutions" / "day-01-repl-gateway"
LAB = ROOT / "labs" / "day-01-repl-gateway"
GOAL = 1.8
QUICK_CHECK = "one-shot"  # one check, one child per grading: enough to exercise the path


def cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return max(os.cpu_count() or 1, 1)


def make_class(root: Path, size: int, quick: bool) -> Path:
    """`size` submissions, solution and lab in turn; quick: one solution and an empty directory
    (a row without a grading process), which runs every part once and costs one grading a side."""
    room = root / "class"
    room.mkdir()
    for number in range(size):
        name = room / f"student-{number:02}"
        if quick and number:
            name.mkdir()
            continue
        source = SOLUTION if number % 2 == 0 else LAB
        shutil.copytree(source, name, ignore=shutil.ignore_patterns("__pycache__"))
    return room


def run(workdir: Path, quick: bool) -> tuple[list[Row], list[str]]:
    python = grader_python()
    script = python.parent / "grader"
    base = [script] if script.exists() else [python, "-m", "grader"]
    env = child_env()
    env.pop("PYTHONPATH")  # the grader sets the lab's path for its own children
    many = cores()
    size = 2 if quick else 2 * many
    room = make_class(workdir, size, quick)
    only = ["--only", QUICK_CHECK] if quick else []
    order = [1, many] if quick else [1, many, many, 1]
    walls: dict[int, list[float]] = {1: [], many: []}
    cpus: dict[int, list[float]] = {1: [], many: []}
    scores: dict[int, list[tuple]] = {1: [], many: []}
    for index, jobs in enumerate(order):
        out = workdir / f"gradebook-{index}-jobs{jobs}"
        argv = [*base, "--course", ROOT, "grade", DAY, room, "-o", out, "--jobs", jobs, "--seed", 7, *only]
        done = run_child(argv, cwd=workdir, env=env, timeout=600)
        if done.status != 0:
            raise RuntimeError(f"grader grade exited with {done.status}: {done.stderr.strip()[-500:]}")
        walls[jobs].append(done.wall)
        cpus[jobs].append(done.cpu)
        rows = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
        scores[jobs].append(tuple((r["name"], r["outcome"], (r["result"] or {}).get("passed")) for r in rows))
    if len({s for runs in scores.values() for s in runs}) != 1:
        raise RuntimeError(f"the runs did not agree on the scores: {scores}")
    serial, parallel = median(walls[1]), median(walls[many])
    ratio = serial / parallel if parallel else float("inf")
    try:
        load = "load %.1f/%.1f/%.1f" % os.getloadavg()
    except OSError:
        load = "load n/a"
    scope = f"--only {QUICK_CHECK}" if quick else "every check"
    per_minute = size / parallel * 60 if parallel else float("inf")
    rows = [Row("batch-throughput", f"grader grade {DAY}, {size} submissions ({scope}), --jobs {many}",
                fmt_time(parallel * 1e9), f"--jobs 1 {fmt_time(serial * 1e9)}", ratio, f">= {GOAL:g}x",
                "met" if ratio >= GOAL else "missed",
                f"{per_minute:.0f} submissions/min on {many} cores ({load} after the runs)"
                + ("" if ratio >= GOAL or many < 2 else f"; missed by {GOAL - ratio:.2f}x"))]
    def side(jobs: int) -> str:
        runs = zip(walls[jobs], cpus[jobs])
        return ", ".join(f"{fmt_time(w * 1e9)} wall / {fmt_time(c * 1e9)} CPU = {c / w:.2f} cores busy"
                         for w, c in runs if w)

    # The CPU both sides spent is the same work; how many cores' worth each got is what the machine gave.
    detail = [f"batch (order {order}): --jobs 1 {side(1)}; --jobs {many} {side(many)}"]
    return rows, detail
