"""Run the reliability suite and print its figures as a Markdown table.

    .venv/bin/python benchmarks/reliability_table.py                 # run tests/reliability, print the table
    .venv/bin/python benchmarks/reliability_table.py -- -k torn      # extra pytest arguments after --
    .venv/bin/python benchmarks/reliability_table.py --from FILE     # print a figures file already written

Each test of tests/reliability records (area, cases tried, cases held); the suite writes
them to $RELIABILITY_FIGURES. The knobs are environment variables: RELIABILITY_KILLS
(default 200), RELIABILITY_FSYNC_KILLS (10), RELIABILITY_SEED (7), RELIABILITY_EXAMPLES (50
per damage kind). The exit status is pytest's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.figures import load, render  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="print this figures file instead of running the suite")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    if args.source:
        print(render(load(args.source)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        figures = Path(tmp) / "reliability-figures.json"
        env = dict(os.environ, RELIABILITY_FIGURES=str(figures))
        command = [sys.executable, "-m", "pytest", "tests/reliability", "-q", "-p", "no:cacheprovider", *args.pytest_args]
        status = subprocess.run(command, cwd=ROOT, env=env, stdout=sys.stderr).returncode
        if not figures.exists():
            print("the suite wrote no figures", file=sys.stderr)
            return status or 1
        print(render(load(figures)))
    return status


if __name__ == "__main__":
    sys.exit(main())
