"""A lab whose code writes into the grader: the run holds, the next run would not.

The grader cannot stop a child running as the same user from writing into its
package. It guarantees instead: (1) the run in progress is unaffected (its checks
module is loaded and its fixtures copied before any student code runs); (2) without
--ci a warning names the changed files; (3) with --ci the run ends with exit 3 and
no report; (4) the next --ci run refuses the tampered kit before grading.
"""

from __future__ import annotations

import json

from tests.hostile import hostile
from tests.hostile.hostile import uses

pytestmark = hostile.linux_only


@uses("writes-grader-package")
def test_without_ci_the_run_holds_and_a_warning_names_the_changed_files(runs):
    run = runs.get("writes-grader-package")
    assert json.loads(run.stdout)["passed"] == 11, run.explain()  # later checks got pristine fixtures
    assert run.grader_after != run.grader_before  # written: the grader cannot prevent it
    assert "changed while the lab's code ran" in run.stderr
    for name in ("grader/checks/day07/checks.py", "grader/hostile.py", "grader/checks/day07/blocking_prelude.py"):
        assert name in run.stderr


@uses("ci:writes-grader-package")
def test_with_ci_a_write_during_the_run_is_tamper_exit_3_and_no_report(runs):
    run = runs.get("ci:writes-grader-package")
    assert run.exit_code == 3, run.explain()
    assert run.stdout == ""
    assert "--ci:" in run.stderr and "changed while the lab's code ran" in run.stderr
    assert "grader/checks/day07/checks.py" in run.stderr
    assert run.left_behind == [] and run.lab_after == run.lab_before


@uses("ci:writes-grader-package")
def test_with_ci_the_next_run_refuses_the_tampered_kit(runs, tmp_path):
    tampered = runs.get("ci:writes-grader-package")
    solution = hostile.DAY.solution
    code, out, err, _ = hostile.run_grader(
        hostile.grader_command(tampered.kit, "check", "day-07", "--lab", str(solution), "--json", "--ci"),
        cwd=tmp_path, env=hostile.grader_env(tampered.kit, tampered.marker), limit=60)
    assert code == 3 and out == ""
    assert "differ from the grader as shipped" in err and "grader/checks/day07/checks.py (changed)" in err


@uses("ci:exit-early")
def test_with_ci_a_hostile_lab_that_leaves_the_grader_alone_is_graded_normally(runs):
    run = runs.get("ci:exit-early")
    assert run.exit_code == 1 and json.loads(run.stdout)["passed"] < 11, run.explain()
    assert "--ci" not in run.stderr


def test_a_lab_that_kills_the_grader_process_fails_closed(runs, tmp_path):
    """A lab that SIGKILLs its parent kills the grader process: the `--help` probe that runs
    before any check (grader/engine/, Probe) is the grader's own child, with checks one after
    another or side by side. Not survivable in the weaker mode (same user; in a hermetic view
    the parent is the view's init, which it cannot kill), and what holds is that CI sees no
    report and a failing status: nothing passes that the lab did not earn."""
    case = hostile.load_case(hostile.HERE / "cases" / "_kills_the_grader.py")
    for jobs, run in (("1", hostile.grade(case, tmp_path / "serial", kit=runs.shared_kit(), extra=["--jobs", "1"])),
                      ("2", hostile.grade(case, tmp_path / "concurrent", kit=runs.shared_kit(), extra=["--jobs", "2"]))):
        assert run.left_behind == [] and run.lab_after == run.lab_before, (jobs, run.explain())
        assert run.exit_code == -9 and run.stdout == "", (jobs, run.explain())
