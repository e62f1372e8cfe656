"""benchmarks/run.py --quick runs and prints its table.

Only that: the figures are ratios on whatever machine runs the tests, so nothing
here asserts a time. The full run is `python benchmarks/run.py` (docs/benchmarks.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ("benchmark", "figure", "baseline", "ratio", "goal", "result", "note")
ROWS = ("append-log", "append-snapshot", "replay", "resume-vs-python", "resume-10k-vs-10",
        "resume-turn", "fork-memory", "fork-memory-cli", "mca-help-floors", "grader-floors", "grader-serial", "grader-latency",
        "grader-overhead", "watch-repl", "batch-throughput")


def test_quick_run_prints_every_row():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    header = next((line for line in lines if line.startswith("| benchmark ")), None)
    assert header is not None, done.stdout[-2000:]
    assert [cell.strip() for cell in header.strip("|").split("|")] == list(HEADER)
    names = {line.strip("|").split("|")[0].strip() for line in lines if line.startswith("| ")}
    missing = [name for name in ROWS if name not in names]
    assert not missing, f"rows missing from the table: {missing}\n{done.stdout[-2000:]}"
