"""`grader check day-07` against hostile or broken student code (cases/*.py).

For every case: the run ends (within a hard limit of 120 s, enforced by killing it,
never a timing assertion), prints one JSON report in which the right checks time out
or fail and every other check reports what it should, leaves no process behind, and
changes neither the lab, nor the grader's cwd, nor (unless the case writes there on
purpose) the grader's files.
"""

from __future__ import annotations

import json
import re

import pytest

from grader import engine
from tests.hostile import hostile
from tests.hostile.hostile import uses

pytestmark = hostile.linux_only

CASES = hostile.cases()
NAMES = [case.name for case in CASES]
BY_NAME = {case.name: case for case in CASES}
PEAK_RSS_LIMIT_KIB = 300 * 1024  # the grader's own memory, even while a child prints 100 MB


@pytest.mark.parametrize("case_name", NAMES)
def test_the_run_ends_with_one_json_report(runs, case_name):
    run = runs.get(case_name)
    assert not run.hard_limit_hit, f"{case_name}: still running after {hostile.HARD_LIMIT} s, killed"
    assert run.exit_code in (0, 1), run.explain()
    report = json.loads(run.stdout)  # the whole stdout is the grader's report, nothing else
    assert report["schema"] == "agent-lab/check-result" and report["total"] == 11


@pytest.mark.parametrize("case_name", NAMES)
def test_the_right_checks_time_out_or_fail_and_the_others_still_run(runs, case_name):
    case, run = BY_NAME[case_name], runs.get(case_name)
    expected = {check: case.statuses.get(check, case.others) for check in run.statuses}
    assert run.statuses == expected, run.explain()
    passed = sum(1 for c in run.report["checks"] if not c["bonus"] and c["status"] == "passed")
    assert run.report["passed"] == passed
    assert run.exit_code == (0 if passed == 11 else 1)


@pytest.mark.parametrize("case_name", NAMES)
def test_no_process_is_left_behind(runs, case_name):
    run = runs.get(case_name)
    if BY_NAME[case_name].escapes:
        pytest.xfail("a daemon with an empty environment, cwd / and no inherited pipe is out of the "
                     "grader's reach without --sandbox, a container or a cgroup (it is killed by the test "
                     "afterwards; test_sandboxed_runs.py holds it with --sandbox)")
    assert run.left_behind == [], f"still running after the grader ended: {run.left_behind[:3]}"


@pytest.mark.parametrize("case_name", NAMES)
def test_the_lab_and_the_graders_cwd_are_unchanged(runs, case_name):
    run = runs.get(case_name)
    assert run.lab_after == run.lab_before, "grader check changed the lab directory"
    assert run.cwd_left == [], f"the grader's cwd gained {run.cwd_left}"


@pytest.mark.parametrize("case_name", [n for n in NAMES if not BY_NAME[n].kit_copy])
def test_the_grader_files_are_unchanged(runs, case_name):
    run = runs.get(case_name)
    assert run.grader_after == run.grader_before
    assert "changed while the lab's code ran" not in run.stderr


@pytest.mark.parametrize("case_name", NAMES)
def test_the_graders_own_memory_stays_bounded(runs, case_name):
    run = runs.get(case_name)
    assert run.peak_rss_kib is not None and run.peak_rss_kib < PEAK_RSS_LIMIT_KIB


@uses("fake-pass")
def test_a_fake_verdict_printed_by_the_lab_is_only_evidence(runs):
    run = runs.get("fake-pass")
    report = run.report
    assert (report["passed"], report["bonus_passed"]) != (11, 6)
    assert "11/11 passed" not in run.stderr  # the lab's own streams never reach the grader's
    # Where the fake appears at all, it is quoted as what a failing check saw.
    quoting = [c for c in report["checks"] if "11/11 passed" in json.dumps(c)]
    assert quoting and all(c["status"] == "failed" for c in quoting)


@uses("hang-read-events")
def test_timeouts_are_reported_scaled_and_named(runs):
    run = runs.get("hang-read-events")
    messages = {c["id"]: c["message"] for c in run.report["checks"]}
    # the harness by its neutral name: nothing in a child's command line names a harness or a check
    assert re.search(r"`python /\S+/[a-z]+-[a-z]+-[0-9]{2}\.py ", messages["torn-tail"]), messages["torn-tail"]
    assert "did not finish within 1 s" in messages["torn-tail"]
    assert "python -m mca" in messages["resume-across-processes"] and "within 3 s" in messages["resume-across-processes"]


def test_a_lab_that_hangs_at_import_costs_one_time_limit_with_the_real_limits(runs, tmp_path):
    """No GRADER_TIMEOUT_SCALE: the real limits. 20 checks that each waited out their own
    limit would take minutes; the import probe stops the run after its one limit."""
    case = hostile.load_case(hostile.HERE / "cases" / "import_loops.py")
    marker = f"hostile-real-limits-{tmp_path.name}"
    lab = hostile.build_lab(case, tmp_path / "lab" / "day-07-session-resume", marker)
    env = hostile.grader_env(runs.shared_kit(), marker)
    del env["GRADER_TIMEOUT_SCALE"]
    code, out, err, _ = hostile.run_grader(
        hostile.grader_command(runs.shared_kit(), "check", "day-07", "--lab", str(lab), "--json"),
        cwd=tmp_path, env=env, limit=40)  # a bound on a hang, not a timing assertion: 2 limits
    hostile.kill_all(marker)
    assert code == 1, f"exit {code} (None: still running after 40 s); stderr: {err[-500:]}"
    report = json.loads(out)
    assert "could not start" in report["blocked"] and f"did not finish within {engine.PROBE_TIMEOUT} s" in report["blocked"]
    assert {c["status"] for c in report["checks"]} == {"skipped"}
