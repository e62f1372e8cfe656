"""A tiny synthetic course, built fresh for each test.

It proves the grader holds nothing day-specific: its own course.toml, its own
checks modules, and a fake lab with a three-function `mca` package.

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
from mca.greet import greet
from mca.count import count


def main(argv):
    if not argv:
        print("mca ok")
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

SOLUTION = {
    "mca/__init__.py": "",
    "mca/__main__.py": MAIN,
    "mca/greet.py": 'def greet(name):\n    return f"hello {name}"\n',
    "mca/count.py": "def count(items):\n    return len(items)\n",
}
LAB = dict(SOLUTION)
LAB["mca/greet.py"] = 'def greet(name):\n    raise NotImplementedError("TODO(E1): greet")\n'
LAB["mca/count.py"] = "def count(items):\n    return len(items) - 1\n"

DAY01_CHECKS = '''\
from grader.checkkit import CheckFailed
from grader.spawn import run_mca


def test_runs(ctx):
    """mca starts."""
    result = run_mca(ctx.lab, cwd=ctx.tmp("runs"))
    if result.returncode != 0:
        raise CheckFailed("mca did not start", expected="exit status 0", seen=f"exit status {result.returncode}")


def test_greets(ctx):
    """greet says hello."""
    result = run_mca(ctx.lab, "greet", "Ann", cwd=ctx.tmp("greets"))
    seen = result.stdout.strip() or result.stderr_tail(1)
    if seen != "hello Ann":
        raise CheckFailed("`greet Ann` did not greet Ann", expected="hello Ann", seen=seen)


def test_counts(ctx):
    """count counts."""
    result = run_mca(ctx.lab, "count", "a", "b", "c", cwd=ctx.tmp("counts"))
    assert result.stdout.strip() == "3", f"`count a b c` printed {result.stdout.strip()!r}, not 3"


def test_polite(ctx):
    """bonus: greet names the person."""
    result = run_mca(ctx.lab, "greet", "Bo", cwd=ctx.tmp("polite"))
    assert "Bo" in result.stdout, "greet Bo does not name Bo"
'''

DAY02_CHECKS = '''\
import sys

import pytest

from grader import spawn
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
    spawn.run([sys.executable, "-c", "import time; time.sleep(30)"], cwd=ctx.tmp("slow"), timeout=0.5)


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
    text = '''format_version = 1

[course]
name = "mini"
title = "A tiny course for testing the grader"

[[days]]
id = "day-01"
slug = "day-01-hello"
title = "Hello"
lab = "labs/day-01-hello"
solution = "solutions/day-01-hello"
checks_module = "checks/day01.py"
scaffold_passes = 1

[[days.exercises]]
id = "E1"
file = "mca/greet.py"
symbol = "greet"
kind = "todo"
summary = "Greet by name."

[[days.exercises]]
id = "E2"
file = "mca/count.py"
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
lab = "solutions/day-01-hello"
solution = "solutions/day-01-hello"
checks_module = "checks/day02.py"
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


@pytest.fixture
def course_dir(tmp_path, monkeypatch) -> Path:
    """A fresh synthetic course; GRADER_COURSE points at it and the cwd is neutral."""
    root = tmp_path / "kit"
    write_tree(root / "solutions/day-01-hello", SOLUTION)
    write_tree(root / "labs/day-01-hello", LAB)
    write_tree(root, {"checks/day01.py": DAY01_CHECKS, "checks/day02.py": DAY02_CHECKS,
                      "checks/day02/data.txt": "fixture data\n", "course.toml": manifest()})
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
