#!/usr/bin/env python3
"""Run every benchmark of the kit and print one table.

    python benchmarks/run.py            the full run (about two minutes)
    python benchmarks/run.py --quick    a smoke run with small sizes (a few seconds)
    python benchmarks/run.py --only replay --only fork

Standard library only, plus the kit's own grader for the grader benchmark (run it
with the kit's virtualenv: .venv/bin/python benchmarks/run.py). Figures are ratios
measured in one run, so they can be compared on a noisy machine; they are never
asserted in tests. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_append  # noqa: E402
import bench_batch  # noqa: E402
import bench_fork  # noqa: E402
import bench_grader  # noqa: E402
import bench_replay  # noqa: E402
import bench_resume  # noqa: E402
import bench_watch  # noqa: E402
import common  # noqa: E402

BENCHMARKS = {
    "append": bench_append,
    "replay": bench_replay,
    "resume": bench_resume,
    "fork": bench_fork,
    "grader": bench_grader,
    "watch": bench_watch,
    "batch": bench_batch,
}
COLUMNS = ("benchmark", "figure", "baseline", "ratio", "goal", "result", "note")


def machine() -> str:
    try:
        load = " load %.1f/%.1f/%.1f" % os.getloadavg()
    except OSError:
        load = ""
    return (f"{os.cpu_count()} cores,{load} Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}")


def table(rows) -> str:
    """A Markdown table (readable as plain text too)."""
    cells = [COLUMNS] + [(r.name, r.figure, r.baseline, r.ratio_text, r.goal, r.verdict, r.note) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]
    lines = ["| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repetitions: a smoke run")
    parser.add_argument("--only", action="append", choices=sorted(BENCHMARKS), help="run only this benchmark")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON here")
    args = parser.parse_args(argv)

    selected = args.only or list(BENCHMARKS)
    workdir = Path(tempfile.mkdtemp(prefix="mca-bench-"))
    common.PYCACHE = None if args.quick else workdir / "pycache"  # quick runs have no warm-up
    rows, details, failures = [], [], []
    started = time.perf_counter()
    print(f"machine: {machine()}", flush=True)
    print(f"mode: {'quick' if args.quick else 'full'}; scratch dir {workdir}", flush=True)
    try:
        for name in selected:
            bench_started = time.perf_counter()
            bench_dir = workdir / name
            bench_dir.mkdir()
            try:
                bench_rows, bench_details = BENCHMARKS[name].run(bench_dir, args.quick)
            except Exception as exc:  # report and go on: one broken benchmark must not hide the others
                failures.append(f"{name}: {type(exc).__name__}: {exc}")
                print(f"  {name}: FAILED: {exc}", file=sys.stderr, flush=True)
                continue
            rows += bench_rows
            details += bench_details
            print(f"  {name}: {time.perf_counter() - bench_started:.1f} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(table(rows))
    if details:
        print()
        print("\n".join(details))
    print(f"\ntotal {time.perf_counter() - started:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "quick": args.quick,
                                               "rows": [vars(r) for r in rows]}, indent=2), encoding="utf-8")
    if failures:
        print("\nbenchmarks that failed to run:\n  " + "\n  ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
