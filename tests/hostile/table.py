"""Grade every hostile case and print the table of docs/reliability.md.

    .venv/bin/python -m tests.hostile.table

Times vary with the machine; statuses, leftovers and hashes do not.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.hostile import hostile
from tests.hostile.conftest import SLOW_FIRST, WORKERS


def verdict(run: hostile.Run) -> str:
    if run.exit_code not in (0, 1):
        return f"exit {run.exit_code}, no report"
    counts = Counter(c["status"] for c in run.report["checks"] if not c["bonus"])
    bonus = Counter(c["status"] for c in run.report["checks"] if c["bonus"])
    core = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    extra = ", ".join(f"{n} {s}" for s, n in sorted(bonus.items()))
    return f"{run.report['passed']}/11 ({core}); bonus: {extra}"


def held(run: hostile.Run) -> bool:
    case = run.case
    expected = {c: case.statuses.get(c, case.others) for c in run.statuses}
    return (not run.hard_limit_hit and run.exit_code in (0, 1) and run.statuses == expected
            and not run.left_behind and run.lab_after == run.lab_before and not run.cwd_left
            and (case.kit_copy or run.grader_after == run.grader_before))


def main() -> None:
    base = Path(tempfile.mkdtemp(prefix="hostile-table-"))
    kit = hostile.copy_kit(base / "shared" / hostile.KIT_GUARD)
    cases = sorted(hostile.cases(), key=lambda c: (SLOW_FIRST.index(c.name) if c.name in SLOW_FIRST
                                                   else len(SLOW_FIRST), c.name))
    with ThreadPoolExecutor(WORKERS) as pool:
        runs = list(pool.map(lambda c: hostile.grade(c, base, kit=None if c.kit_copy else kit), cases))
    print("| case | what the grader reported | s | grader RSS MB | left behind | lab | held |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for run in sorted(runs, key=lambda r: r.case.name):
        print(f"| {run.case.name} | {verdict(run)} | {run.seconds:.1f} | {(run.peak_rss_kib or 0) / 1024:.0f} "
              f"| {len(run.left_behind)} | {'same' if run.lab_after == run.lab_before else 'CHANGED'} "
              f"| {'yes' if held(run) else 'NO'} |")
        hostile.kill_all(run.marker)
    print(f"\nheld: {sum(map(held, runs))}/{len(runs)}")


if __name__ == "__main__":
    main()
