"""Tools: confinement to the workdir, exact edits, run_command, truncation, approval."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from mca.tools.approval import Approver
from mca.tools.paths import OutsideWorkdir, resolve_inside
from mca.tools.registry import default_tools
from mca.tools.truncate import truncate


@pytest.fixture
def tools(workspace):
    return default_tools(workspace, command_timeout=30)


@pytest.mark.parametrize("path", ["../secret.txt", "sub/../../x", "/etc/passwd"])
def test_paths_outside_the_workdir_are_refused(workspace, path):
    with pytest.raises(OutsideWorkdir):
        resolve_inside(workspace, path)


def test_a_symlink_pointing_out_is_refused(workspace, tmp_path):
    (tmp_path / "outside.txt").write_text("secret")
    (workspace / "link.txt").symlink_to(tmp_path / "outside.txt")
    result = default_tools(workspace).run("read_file", {"path": "link.txt"})
    assert not result.ok and "outside the workdir" in result.content


def test_read_list_and_grep(tools):
    assert "def divide" in tools.run("read_file", {"path": "calc.py"}).content
    listing = tools.run("list_dir", {}).content.splitlines()
    assert "calc.py" in listing and "test_calc.py" in listing
    assert tools.run("grep", {"pattern": r"def \w+\(a, b\)"}).content.count("calc.py:") == 4


def test_reading_outside_is_an_error_result_not_an_exception(tools):
    result = tools.run("read_file", {"path": "../../etc/passwd"})
    assert not result.ok and result.content.startswith("error:")


def test_edit_replaces_text_that_appears_exactly_once(tools, workspace):
    result = tools.run("edit_file", {"path": "calc.py", "old": "    return a * b", "new": "    return b * a"})
    assert result.ok and "return b * a" in (workspace / "calc.py").read_text()


@pytest.mark.parametrize("old, problem", [("not in the file", "not found"), ("    return a", "appears 4 times")])
def test_edit_refuses_zero_or_many_matches_and_leaves_the_file(tools, workspace, old, problem):
    before = (workspace / "calc.py").read_text()
    result = tools.run("edit_file", {"path": "calc.py", "old": old, "new": "x"})
    assert not result.ok and problem in result.content
    assert (workspace / "calc.py").read_text() == before


def test_write_file_creates_parent_directories(tools, workspace):
    assert tools.run("write_file", {"path": "notes/a.txt", "content": "hi"}).ok
    assert (workspace / "notes" / "a.txt").read_text() == "hi"


def test_missing_or_mistyped_args_are_reported(tools):
    assert "missing 'path'" in tools.run("read_file", {}).content
    assert "must be a string" in tools.run("read_file", {"path": 3}).content
    assert "unknown argument" in tools.run("read_file", {"path": "calc.py", "mode": "r"}).content


def test_run_command_reports_exit_status_and_time_first(tools):
    result = tools.run("run_command", {"command": "python -m unittest -v"})
    assert result.ok
    assert re.match(r"exit status 1 \(\d+ ms\)\n", result.content)
    assert "ERROR: test_divide_by_zero" in result.content


def test_run_command_uses_the_agents_own_python_first(tools):
    result = tools.run("run_command", {"command": "python -c 'import sys; print(sys.executable)'"})
    printed = result.content.splitlines()[1]
    assert os.path.dirname(printed) == os.path.dirname(sys.executable)


def test_run_command_timeout_is_an_error_result(tools, fp):
    def too_slow(process):
        raise subprocess.TimeoutExpired("python -m unittest", 30)
    fp.register("python -m unittest", callback=too_slow)
    result = tools.run("run_command", {"command": "python -m unittest"})
    assert not result.ok and "did not finish within 30 s" in result.content


def test_long_results_keep_head_and_tail_with_a_marker():
    text = "A" * 6000 + "B" * 6000
    cut, truncated = truncate(text, 1000)
    assert truncated and cut.startswith("A" * 500) and cut.endswith("B" * 500)
    assert "11000 characters cut" in cut and len(cut) < 1100
    assert truncate("short", 1000) == ("short", False)


def test_registry_flags_truncated_results(workspace):
    (workspace / "big.txt").write_text("x" * 20000)
    result = default_tools(workspace).run("read_file", {"path": "big.txt"})
    assert result.ok and result.truncated and "characters cut" in result.content


# --- approval ------------------------------------------------------------------

def test_read_only_tools_are_allowed_and_the_rest_ask(tools):
    approver = Approver.for_tools(tools)
    assert approver.rules["read_file"] == "allow" and approver.rules["grep"] == "allow"
    assert approver.rules["edit_file"] == "ask" and approver.rules["run_command"] == "ask"


def test_an_ask_with_nobody_to_ask_is_a_denial(tools):
    decision = Approver.for_tools(tools).decide("edit_file", {"path": "calc.py"})
    assert not decision.allowed and "--yes" in decision.reason


def test_yes_approves_every_ask_but_not_a_deny():
    approver = Approver({"run_command": "ask", "write_file": "deny"}, yes=True)
    assert approver.decide("run_command", {"command": "ls"}).allowed
    assert not approver.decide("write_file", {}).allowed


def test_the_user_is_asked_with_the_command_itself():
    questions: list[str] = []
    approver = Approver({"run_command": "ask"}, ask=lambda q: questions.append(q) or False)
    decision = approver.decide("run_command", {"command": "make test"})
    assert questions == ["run_command: make test"]
    assert not decision.allowed and decision.reason.startswith("denied:")


def test_a_tool_without_a_rule_is_not_trusted():
    assert not Approver({}).decide("new_tool", {}).allowed


def test_a_misspelt_rule_is_refused():
    with pytest.raises(ValueError):
        Approver({"read_file": "alow"})
