"""Tiny synthetic courses for the kit's own tests (nothing day-specific).

`make_course` writes a real kit into a temp dir: course.toml (format 2), a one-source
tree with day markers and exercise regions, a lab sheet per day, and the labs and
solutions the generator renders from it. With `two_days`, day 2 adds a function and a
whole module of its own (day blocks) with its own exercise point.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from grader import scaffold
from grader.course import Check, Course, load_course

MOD = '''\
"""A module with exercise points."""


def one():
    # BEGIN SOLUTION day-01 E1
    return 1
    # END SOLUTION day-01 E1
    # BEGIN SCAFFOLD day-01 E1
    # raise NotImplementedError("TODO(E1): return one")
    # END SCAFFOLD day-01 E1


def two():
    # BEGIN SOLUTION day-01 E2
    return 2
    # END SOLUTION day-01 E2
    # BEGIN SCAFFOLD day-01 E2
    # return 2.0  # looks tidy, is wrong
    # END SCAFFOLD day-01 E2
# [day 2+]


def three():
    # BEGIN SOLUTION day-02 E1
    answer = 1 + 2  # the answer of day two, worked out
    return answer
    # END SOLUTION day-02 E1
    # BEGIN SCAFFOLD day-02 E1
    # raise NotImplementedError("TODO(E1): return three, the answer of day 2")
    # END SCAFFOLD day-02 E1
# [/day]
'''

LATER = '''\
# [day 2+]
"""A module that exists from day 2 on."""

GREETING = "hello from day 2"
# [/day]
'''

HINTS = ("look closer", "the concept", "almost the answer")


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(textwrap.dedent(data) if data.startswith("\n") else data)
    return root


def check(cid, exercises=(), hints=HINTS, bonus=False) -> Check:
    return Check(id=cid, title=f"title of {cid}", exercises=tuple(exercises), hints=tuple(hints), bonus=bonus)


DAY1_EXERCISES = (("E1", "pkg/mod.py", "one", "todo"), ("E2", "pkg/mod.py", "two", "trap"))
DAY1_CHECKS = (check("c-base"), check("c-one", ["E1"]), check("c-two", ["E2"]),
               check("b-both", ["E1", "E2"], bonus=True))
DAY2_CHECKS = (check("c-base"), check("c-three", ["E1"]))


# What each synthetic check needs to find in the graded pkg/mod.py to pass.
NEEDS = {"c-base": [], "c-one": ["    return 1\n"], "c-two": ["    return 2\n"],
         "b-both": ["    return 1\n", "    return 2\n"], "c-three": ["    return answer\n"]}


def checks_module(checks, needs=None) -> str:
    """A real checks module: one file-level check per id, its docstring its title."""
    needs = needs or NEEDS
    text = "from pathlib import Path\n"
    for c in checks:
        text += f'''

def test_{c.id.replace("-", "_")}(ctx):
    """{c.title}"""
    text = (Path(ctx.lab) / "pkg" / "mod.py").read_text()
    for needed in {needs.get(c.id, [])!r}:
        assert needed in text, f"pkg/mod.py lacks {{needed!r}}"
'''
    return text


def _list(items) -> str:
    return "[" + ", ".join('"' + i.replace('"', '\\"') + '"' for i in items) + "]"


def _day(number: int, slug: str, passes: int, exercises, checks) -> str:
    day_id = f"day-{number:02d}"
    text = f'''
[[days]]
id = "{day_id}"
slug = "{day_id}-{slug}"
title = "demo day {number}"
lab = "labs/{day_id}-{slug}"
solution = "solutions/{day_id}-{slug}"
checks_dir = "grader/checks/day{number:02d}"
sheet = "sheets/{day_id}.md"
scaffold_passes = {passes}
'''
    for ex_id, file, symbol, kind in exercises:
        text += f'''
[[days.exercises]]
id = "{ex_id}"
file = "{file}"
symbol = "{symbol}"
kind = "{kind}"
summary = "{symbol}"
'''
    if not exercises:
        text += "exercises = []\n"
    for c in checks:
        text += f'''
[[days.checks]]
id = "{c.id}"
title = "{c.title}"
exercises = {_list(c.exercises)}
hints = {_list(c.hints)}
bonus = {"true" if c.bonus else "false"}
'''
    return text


def make_course(root: Path, *, files=None, checks=None, exercises=None, scaffold_passes=1,
                generate=True, two_days=False) -> Course:
    """A kit under root: manifest, source, sheets; labs and solutions generated unless told not to."""
    source = {"pkg/__init__.py": "", "pkg/mod.py": MOD, "pkg/later.py": LATER}
    write(root / "source", files if files is not None else source)
    write(root / "sheets", {"day-01.md": "# day 1 sheet\n", "day-02.md": "# day 2 sheet\n"})
    manifest = '''format_version = 2

[course]
name = "demo"
title = "demo course"
source = "source"

[course.agent]
package = "pkg"
'''
    manifest += _day(1, "demo", scaffold_passes, exercises or DAY1_EXERCISES, checks or DAY1_CHECKS)
    write(root / "grader/checks/day01", {"checks.py": checks_module(checks or DAY1_CHECKS)})
    if two_days:
        manifest += _day(2, "more", 1, (("E1", "pkg/mod.py", "three", "todo"),), DAY2_CHECKS)
        write(root / "grader/checks/day02", {"checks.py": checks_module(DAY2_CHECKS)})
    (root / "course.toml").write_text(manifest)
    course = load_course(root / "course.toml")
    if generate:
        for day in course.days:
            scaffold.generate(course, day)
    return course


@pytest.fixture
def course(tmp_path) -> Course:
    return make_course(tmp_path)


@pytest.fixture
def two_day_course(tmp_path) -> Course:
    return make_course(tmp_path, two_days=True)
