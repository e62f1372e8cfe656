"""Each day's mock scenario end to end: ``python -m mca`` with MOCK=1 in a child process,
run from a scratch dir holding a private copy of the solution's workspace (as ./workspace).

Later days keep earlier scenarios working, so each runs from its day on.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .days import DAY, SOLUTION, since, until

YES = ["--yes"] if DAY >= 5 else []  # from day 5 a call that changes something asks first
FIX = "run the tests and fix the failing case"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    shutil.copytree(SOLUTION / "workspace", root / "workspace", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def mca(project: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCA_") and k not in ("MOCK", "PYTHONPATH")}
    env.update(MOCK="1", PYTHONPATH=str(SOLUTION), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "mca", *args], cwd=project, env=env, input=stdin,
                          capture_output=True, text=True, timeout=60, start_new_session=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def repl(project: Path, *lines: str, options=()) -> subprocess.CompletedProcess[str]:
    return mca(project, *options, stdin="".join(line + "\n" for line in lines) + "/exit\n")


def test_day1_a_piped_repl_ends_its_last_prompt_line_on_exit_and_at_the_end_of_input(project):
    """`printf '...\\n/exit\\n' | python -m mca`: the input is not echoed, so the last `you > `
    would be glued to whatever the shell prints next; both ways of leaving end that line."""
    for stdin in ("my name is Ada\n/exit\n", "my name is Ada\n/quit\n", "my name is Ada\n"):
        done = mca(project, stdin=stdin)
        assert done.returncode == 0 and done.stdout.endswith("Ada.\nyou > \n"), repr(done.stdout[-60:])


def test_day1_the_repl_remembers_a_name(project):
    done = repl(project, "my name is Ada", "what is my name?")
    assert done.returncode == 0
    assert "Nice to meet you, Ada." in done.stdout and "Your name is Ada." in done.stdout


@since(2, "the mock's read_file call")
def test_day2_read_asks_for_the_file_and_from_day3_reads_it(project):
    done = mca(project, "read calc.py")
    assert done.returncode == 0
    if DAY == 2:
        assert done.stdout == "I will read calc.py.\n"
        assert 'the model asked for read_file({"path": "calc.py"}); no tool can run yet' in done.stderr
    else:
        assert done.stdout.endswith("calc.py has 17 lines and defines add, sub, mul, divide.\n")
        assert '-> read_file {"path": "calc.py"}' in done.stderr


@since(3, "read tools and the tool loop")
def test_day3_read_tools_two_calls_the_round_cap_and_broken_calls_in_one_repl(project):
    marker = f"# run {random.randrange(10**6)}"
    calc = project / "workspace" / "calc.py"
    calc.write_text(calc.read_text().replace("    return a / b", f"    return a / b  {marker}"))
    done = repl(project, "what does divide do", "compare calc.py and test_calc.py", "keep looking",
                "try broken calls", "my name is Ada", options=YES)  # from day 5 an unknown tool asks first
    out, err = done.stdout, done.stderr
    assert done.returncode == 0
    assert f"divide is `def divide(a, b):` and it ends with `return a / b  {marker}`." in out
    assert "calc.py has 17 lines (add, sub, mul, divide); test_calc.py has 25 lines" in out
    assert "error (loop): stopped after 8 model rounds without a final answer" in err
    for failure in ("error: the arguments were not valid JSON", "error: bad arguments for read_file: missing 'path'",
                    "error: bad arguments for read_file: 'path' must be a string", "error: no tool named 'summon_files'"):
        assert failure in out
    assert out.split("you > ")[-2].strip() == "Nice to meet you, Ada."  # every round left a valid history


@since(4, "write tools and the shell")
def test_day4_the_mock_fixes_calc_and_the_suite_passes(project):
    done = mca(project, *YES, FIX)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("All 4 tests pass.")
    assert 'raise ValueError("cannot divide by zero")' in (project / "workspace" / "calc.py").read_text()
    assert done.stderr.count("-> run_command: python -m unittest -v") == 2
    assert "-> edit_file" in done.stderr


@since(5, "the approval gate")
def test_day5_without_a_terminal_an_ask_is_a_no_and_nothing_changes(project):
    before = (project / "workspace" / "calc.py").read_text()
    done = mca(project, FIX)
    assert done.returncode == 0
    assert "I could not go on: denied: run_command: python -m unittest -v needs approval and there is no one " \
           "to ask" in done.stdout
    assert (project / "workspace" / "calc.py").read_text() == before


@since(5, "the approval gate")
def test_day5_the_built_in_rule_denies_rm_rf_even_with_yes(project):
    (project / "workspace" / "build").mkdir()
    done = mca(project, "--yes", "delete the build dir")
    assert done.returncode == 0 and (project / "workspace" / "build").is_dir()
    assert done.stdout.strip().endswith(
        "I will not delete the build directory: denied: run_command: rm -rf build is not allowed "
        "(rule: deny run_command rm -rf * (built in))")
    assert "run_command blocked by approval" in done.stderr


RULES_TOML = """\
[[rule]]
action = "allow"
tool = "run_command"
match = "python -m unittest*"

[[rule]]
action = "allow"
tool = "edit_file"
match = "calc.py"
"""


@since(5, "the approval gate")
def test_day5_rules_toml_allows_the_fix_without_asking(project):
    (project / "workspace" / ".mca").mkdir()
    (project / "workspace" / ".mca" / "rules.toml").write_text(RULES_TOML)
    done = mca(project, FIX)  # no --yes and no terminal: only the rules can allow
    assert done.returncode == 0 and done.stdout.rstrip().endswith("All 4 tests pass.")


@since(5, "the approval gate")
def test_day5_a_deny_option_beats_an_allow_in_rules_toml(project):
    (project / "workspace" / ".mca").mkdir()
    (project / "workspace" / ".mca" / "rules.toml").write_text(RULES_TOML)
    before = (project / "workspace" / "calc.py").read_text()
    done = mca(project, "--yes", "--rule", "deny edit_file *", FIX)
    assert done.returncode == 0 and (project / "workspace" / "calc.py").read_text() == before
    assert "is not allowed (rule: deny edit_file * (--rule))" in done.stdout


@since(6, "error feedback and the loop guard")
def test_day6_a_missing_file_is_fed_back_and_a_repeated_call_is_blocked(project):
    done = repl(project, "read config.py", "check again and again")
    assert done.returncode == 0
    assert ("There is no config.py in this project. The code is in the module I read, which defines "
            "add, sub, mul, divide.") in done.stdout
    assert "I was repeating myself: blocked: list_dir was already called 2 times" in done.stdout
    assert "list_dir blocked by loop guard" in done.stderr


@since(7, "sessions")
def test_day7_the_fix_continues_in_a_resumed_session(project):
    first = mca(project, "--yes", "run the tests and tell me which case fails")
    assert first.returncode == 0 and "The failing case is test_divide_by_zero" in first.stdout
    second = mca(project, "--yes", "--resume", "fix it")
    assert second.returncode == 0 and "5 messages restored" in second.stderr
    assert second.stdout.rstrip().endswith("All 4 tests pass now: divide() raises ValueError for a zero divisor.")
    assert len(list((project / ".sessions").glob("s-*.jsonl"))) == 1


@until(6, "day 7 records sessions")
def test_before_day7_nothing_is_written_outside_the_workspace(project):
    done = repl(project, "my name is Ada")
    assert done.returncode == 0 and sorted(p.name for p in project.iterdir()) == ["workspace"]
