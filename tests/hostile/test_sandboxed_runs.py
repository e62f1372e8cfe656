"""`grader check day-07 --sandbox` against the hostile labs that cover their tracks best.

grandchild-scrubbed leaves, in every run of the agent, a daemon with an empty environment,
cwd / and no inherited pipe, in a session of its own: out of reach of the group kill and
the pipe search. The plain grader holds it as the subreaper that adopts it when its parent
ends (grader/spawn/groups.py); in a PID namespace of its own it dies with the run as well,
and the report is the same. A lab that SIGKILLs the grader still kills it (the sandbox does not stop a signal
to the grader itself), and still fails closed: no report, the status of a SIGKILL, and
nothing left behind.

Skipped, with the probe's reason, where no PID namespace can be made.
"""

from __future__ import annotations

import json

import pytest

from grader.spawn import sandbox
from tests.hostile import hostile
from tests.hostile.hostile import uses

WAY = sandbox.find()
pytestmark = [hostile.linux_only,
              pytest.mark.skipif(not WAY.available, reason=f"no PID namespace here: {WAY.reason}")]


@uses("grandchild-scrubbed", "sandbox:grandchild-scrubbed")
def test_the_scrubbed_daemon_dies_with_the_plain_grader_and_with_the_sandbox(runs):
    plain, boxed = runs.get("grandchild-scrubbed"), runs.get("sandbox:grandchild-scrubbed")
    assert plain.left_behind == [], f"still running after the plain grader ended: {plain.left_behind[:3]}"
    assert not boxed.hard_limit_hit and boxed.exit_code == 0, boxed.explain()
    assert boxed.left_behind == [], f"still running after the sandboxed grader ended: {boxed.left_behind[:3]}"
    report = json.loads(boxed.stdout)  # the whole stdout is still the grader's one report
    assert report["schema"] == "agent-lab/check-result" and (report["passed"], report["total"]) == (11, 11)
    assert boxed.statuses == plain.statuses and set(boxed.statuses.values()) == {"passed"}
    assert boxed.lab_after == boxed.lab_before and boxed.cwd_left == []
    assert boxed.grader_after == boxed.grader_before


def test_a_lab_that_kills_the_sandboxed_grader_still_fails_closed(runs, tmp_path):
    case = hostile.load_case(hostile.HERE / "cases" / "_kills_the_grader.py")
    run = hostile.grade(case, tmp_path, kit=runs.shared_kit(), extra=["--jobs", "1", "--sandbox"])
    assert run.exit_code == -9 and run.stdout == "", run.explain()  # as without --sandbox
    assert run.left_behind == [] and run.lab_after == run.lab_before
