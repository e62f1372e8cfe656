"""Tiny synthetic courses for the kit's own tests (nothing day-specific)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from grader import scaffold
from grader.course import Check, Course, Day, Exercise

MOD = '''\
"""A module with two exercise points."""


def one():
    # BEGIN SOLUTION E1
    return 1
    # END SOLUTION E1
    # BEGIN SCAFFOLD E1
    # raise NotImplementedError("TODO(E1): return one")
    # END SCAFFOLD E1


def two():
    # BEGIN SOLUTION E2
    return 2
    # END SOLUTION E2
    # BEGIN SCAFFOLD E2
    # return 2.0  # looks tidy, is wrong
    # END SCAFFOLD E2
'''


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(textwrap.dedent(data) if data.startswith("\n") else data)
    return root


def check(cid, exercises=(), hints=("look closer",), bonus=False) -> Check:
    return Check(id=cid, title=f"title of {cid}", exercises=tuple(exercises), hints=tuple(hints), bonus=bonus)


def make_course(root: Path, *, files=None, checks=None, exercises=None, scaffold_passes=1,
                generate_lab=True) -> Course:
    """A one-day course `day-01` under root: solution tree, generated lab, manifest data."""
    solution = write(root / "solutions" / "day-01-demo", files or {"pkg/mod.py": MOD, "README.md": "# demo\n"})
    lab = root / "labs" / "day-01-demo"
    if generate_lab:
        scaffold.generate(solution, lab)
    exercises = exercises or (Exercise("E1", "pkg/mod.py", "one", "todo", "return one"),
                              Exercise("E2", "pkg/mod.py", "two", "trap", "return two"))
    checks = checks or [check("c-base"), check("c-one", ["E1"]), check("c-two", ["E2"]),
                        check("b-both", ["E1", "E2"], bonus=True)]
    day = Day(id="day-01", slug="day-01-demo", title="demo", lab=lab, solution=solution,
              checks=root / "grader" / "checks" / "day01.py", scaffold_passes=scaffold_passes,
              exercises=tuple(exercises), checks_core=tuple(c for c in checks if not c.bonus),
              checks_bonus=tuple(c for c in checks if c.bonus))
    return Course(root=root, name="demo", title="demo course", days=(day,))


@pytest.fixture
def course(tmp_path) -> Course:
    return make_course(tmp_path)
