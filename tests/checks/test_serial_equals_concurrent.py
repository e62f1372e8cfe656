"""A run with checks side by side (the default, grader/engine/parallel.py) reports what a run with one
check at a time (`--jobs 1`) reports, on the same seed: statuses, messages, expected and
seen, hints, and the reproduce lines once the run's own root and lab path, the fake
server's port, the ids of sessions made live (named after the clock), pauses as
measured and the inode numbers of files the checks wrote are set aside, and reproduce lines are compared as a set (a check that runs two
children at once records them in the order they finish, in either mode).

Every day's solution and untouched lab are graded both ways. On the days whose checks share
setup (a fixture wider than one check) the grouping decides which process runs what; on
the others each check runs in a worker of its own, with the children, fake servers and
terminals of the others beside it. The hostile labs are graded side by side in
tests/hostile.
"""

from __future__ import annotations

import re

import pytest

from tests.checks import corpus

DAYS = [day.id for day in corpus.COURSE.days]
SHARING = [day.id for day in corpus.COURSE.days
           if re.search(r"@pytest\.fixture\(scope=\"(module|session|package)\"", day.checks_module.read_text())]
LIVE_ID = re.compile(r"s-20(2[6-9]|[3-9]\d)\d{4}-\d{6}-[0-9a-f]{4}")  # made by the clock, not the seed
PORT = re.compile(r"127\.0\.0\.1:\d+")
MEASURED = re.compile(r"\b\d+(\.\d+)? ?(ms|s)\b")  # a pause the lab took, as measured: the clock's, not the seed's
INODE = re.compile(r"\binode \d+")  # the file system's number for a file the check wrote
RUN_ROOT = re.compile(r"[^\s'\"]*/tmp[a-z0-9_]{8}/work/")  # tempfile.mkdtemp(), then the children's work/


def normalised(graded) -> list[dict]:
    return normalised_report(graded.report, graded.lab)


def normalised_report(report: dict, lab) -> list[dict]:
    """Every check of a JSON report with what differs from run to run by nature set aside."""
    lab = str(lab)

    def plain(text: str) -> str:
        text = PORT.sub("PORT", LIVE_ID.sub("LIVE-ID", RUN_ROOT.sub("RUN/", text.replace(lab, "LAB"))))
        return INODE.sub("inode N", MEASURED.sub("TIME", text))

    out = []
    for check in [*report["checks"], *report.get("bonus", [])]:
        check = {k: v for k, v in check.items() if k != "duration"}
        for key, value in check.items():
            if isinstance(value, str):
                check[key] = plain(value)
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                # sorted: a check that runs two children at once records them as they finish
                check[key] = sorted(plain(v) for v in value) if key == "repro" else [plain(v) for v in value]
        out.append(check)
    return out


def test_some_day_shares_setup():
    assert "day-07" in SHARING


@pytest.mark.full_tier  # two fresh gradings per tree and day: the full tier's
@pytest.mark.parametrize("tree", ["solution", "scaffold-lab"])
@pytest.mark.parametrize("day_id", DAYS)
def test_serial_and_concurrent_runs_report_the_same(gradings, day_id, tree):
    concurrent = gradings.get(f"{day_id}/{tree}")
    serial = gradings.get(f"{day_id}/{tree}@serial")
    assert concurrent.report["seed"] == serial.report["seed"]
    a, b = normalised(serial), normalised(concurrent)
    assert [c["id"] for c in a] == [c["id"] for c in b]
    for one, other in zip(a, b):
        differ = {key: (one[key], other.get(key)) for key in one if one[key] != other.get(key)}
        assert not differ, f"{day_id}/{tree} {one['id']}: serial and concurrent differ: {differ}"


test_serial_and_concurrent_runs_report_the_same.labs_used = [
    name for day_id in DAYS for tree in ("solution", "scaffold-lab") for name in
    (f"{day_id}/{tree}", f"{day_id}/{tree}@serial")]
