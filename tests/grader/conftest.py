"""A tiny synthetic course, built fresh for each test.

It proves the grader holds nothing day-specific: its own course.toml, its own
checks folders, its own agent (`toy`, with its own mock switch and variables),
and a one-source tree from which its labs and solutions are generated.

day-01 ("hello"): checks runs, greets (E1), counts (E2) and a bonus polite (E1).
The lab passes only `runs` (greet is a stub, count is a trap); the solution
passes everything.
day-02 ("statuses"): one check per outcome the plugin must map, run against the
day-01 solution.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

MAIN = '''\
import sys
from toy.greet import greet
from toy.count import count


def main(argv):
    if not argv:
        print("toy ok")
        return 0
    if argv[0] == "greet":
        print(greet(argv[1]))
        return 0
    if argv[0] == "count":
        print(count(argv[1:]))
        return 0
    return 2


sys.exit(main(sys.argv[1:]))
'''

SOURCE = {
    "toy/__init__.py": "",
    "toy/__main__.py": MAIN,
    "toy/greet.py": ("def greet(name):\n    # BEGIN SOLUTION day-01 E1\n    return f\"hello {name}\"\n"
                     "    # END SOLUTION day-01 E1\n    # BEGIN SCAFFOLD day-01 E1\n"
                     "    # raise NotImplementedError(\"TODO(E1): greet\")\n    # END SCAFFOLD day-01 E1\n"),
    "toy/count.py": ("def count(items):\n    # BEGIN SOLUTION day-01 E2\n    return len(items)\n"
                     "    # END SOLUTION day-01 E2\n    # BEGIN SCAFFOLD day-01 E2\n"
                     "    # return len(items) - 1\n    # END SCAFFOLD day-01 E2\n"),
}

DAY01_CHECKS = '''\
from grader.checkkit import CheckFailed


def test_runs(ctx):
    """The runs check."""
    result = ctx.run_agent(cwd=ctx.tmp("runs"))
    if result.returncode != 0:
        raise CheckFailed("toy did not start", expected="exit status 0", seen=f"exit status {result.returncode}")


def test_greets(ctx):
    """The greets check."""
    result = ctx.run_agent("greet", "Ann", cwd=ctx.tmp("greets"))
    seen = result.stdout.strip() or result.stderr_tail(1)
    if seen != "hello Ann":
        raise CheckFailed("`greet Ann` did not greet Ann", expected="hello Ann", seen=seen)


def test_counts(ctx):
    """The counts check."""
    result = ctx.run_agent("count", "a", "b", "c", cwd=ctx.tmp("counts"))
    assert result.stdout.strip() == "3", f"`count a b c` printed {result.stdout.strip()!r}, not 3"


def test_polite(ctx):
    """The polite check."""
    result = ctx.run_agent("greet", "Bo", cwd=ctx.tmp("polite"))
    assert "Bo" in result.stdout, "greet Bo does not name Bo"
'''

DAY02_CHECKS = '''\
import sys

import pytest

from grader.checkkit import CheckFailed


@pytest.fixture(scope="session")
def broken_setup(ctx):
    raise RuntimeError("the shared round could not be prepared")


def test_ok(ctx):
    assert (ctx.fixtures / "data.txt").read_text() == "fixture data\\n"


def test_wrong(ctx):
    raise CheckFailed("the answer is wrong", expected="42", seen="41")


def test_broken(ctx):
    {}["missing"]


def test_slow(ctx):
    ctx.run_process([sys.executable, "-c", "import time; time.sleep(30)"], cwd=ctx.tmp("slow"), timeout=0.5)


def test_skipped(ctx):
    pytest.skip("needs test_ok's output")


def test_shared_a(ctx, broken_setup):
    pass


def test_shared_b(ctx, broken_setup):
    pass
'''


def _toml_list(items):
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"


def check_entry(check_id, exercises=(), bonus=False, hints=("look closer", "the concept", "almost the answer")):
    text = f'''
[[days.checks]]
id = "{check_id}"
title = "The {check_id} check."
exercises = {_toml_list(exercises)}
hints = {_toml_list(hints)}
'''
    return text + ("bonus = true\n" if bonus else "")


def manifest(day01_extra="", day02=True):
    text = '''format_version = 2

[course]
name = "mini"
title = "A tiny course for testing the grader"
source = "source"

[course.agent]
package = "toy"
mock_env = { TOY_MOCK = "1" }
env_prefix = "TOY_"
runtime_dirs = [".toystate"]

[[days]]
id = "day-01"
slug = "day-01-hello"
title = "Hello"
lab = "labs/day-01-hello"
solution = "solutions/day-01-hello"
checks_dir = "checks/day01"
scaffold_passes = 1

[[days.exercises]]
id = "E1"
file = "toy/greet.py"
symbol = "greet"
kind = "todo"
summary = "Greet by name."

[[days.exercises]]
id = "E2"
file = "toy/count.py"
symbol = "count"
kind = "trap"
summary = "Count the items."
'''
    text += check_entry("runs") + check_entry("greets", ["E1"]) + check_entry("counts", ["E2"])
    text += check_entry("polite", ["E1"], bonus=True) + day01_extra
    if day02:
        text += '''
[[days]]
id = "day-02"
slug = "day-02-statuses"
title = "Every status"
lab = "labs/day-02-statuses"
solution = "solutions/day-02-statuses"
checks_dir = "checks/day02"
scaffold_passes = 0
exercises = []
'''
        for check_id in ("ok", "wrong", "broken", "slow", "skipped", "shared-a", "shared-b", "missing"):
            text += check_entry(check_id)
    return text


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def generate_all(root: Path) -> None:
    """Render every day's solution and lab from the source, as an instructor would."""
    from grader import scaffold
    from grader.course import load_course

    course = load_course(root / "course.toml")
    for day in course.days:
        scaffold.generate(course, day)


@pytest.fixture
def course_dir(tmp_path, monkeypatch) -> Path:
    """A fresh synthetic course; GRADER_COURSE points at it and the cwd is neutral."""
    root = tmp_path / "kit"
    write_tree(root / "source", SOURCE)
    write_tree(root, {"checks/day01/checks.py": DAY01_CHECKS, "checks/day02/checks.py": DAY02_CHECKS,
                      "checks/day02/data.txt": "fixture data\n", "course.toml": manifest()})
    generate_all(root)
    monkeypatch.setenv("GRADER_COURSE", str(root / "course.toml"))
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return root


@pytest.fixture
def course(course_dir):
    from grader.course import load_course

    return load_course(course_dir / "course.toml")


def dedent(text: str) -> str:
    return textwrap.dedent(text)
