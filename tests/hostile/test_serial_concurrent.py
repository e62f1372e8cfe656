"""A hostile lab is graded alike one check at a time and checks side by side: a lab whose
every run leaves a process behind in a session of its own, holding the pipes, gets the
same report with `--jobs 1` and `--jobs 2` (same seed), and neither run leaves anything
behind. (The solution and the untouched labs: tests/checks/test_serial_equals_concurrent.py.)"""

from __future__ import annotations

import json

from tests.checks.test_serial_equals_concurrent import normalised_report
from tests.hostile import hostile


@hostile.linux_only
def test_a_hostile_lab_gets_the_same_report_serial_and_concurrent(runs, tmp_path):
    case = runs.cases["grandchild-new-session"]
    reports, codes = [], []
    for jobs in ("1", "2"):
        run = hostile.grade(case, tmp_path, kit=runs.shared_kit(), extra=("--jobs", jobs, "--seed", "5"),
                            label=f"jobs-{jobs}", scale="1")  # the real limits: load must not decide
        assert run.left_behind == [] and run.lab_after == run.lab_before, run.explain()
        codes.append(run.exit_code)
        reports.append(normalised_report(json.loads(run.stdout.replace(run.marker, "MARKER")), run.lab))
    assert codes[0] == codes[1] and codes[0] in (0, 1)
    serial, concurrent = reports
    assert [c["id"] for c in serial] == [c["id"] for c in concurrent]
    for one, other in zip(serial, concurrent):
        differ = {key: (one[key], other.get(key)) for key in one if one[key] != other.get(key)}
        assert not differ, f"{one['id']}: --jobs 1 and --jobs 2 differ: {differ}"
