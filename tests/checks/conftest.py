"""Grading runs shared by the tests of the day-07 checks.

Every lab the tests need (the solution, each mutant, each alternate, the scaffold
lab and the one-region reverts) is built in a temp dir and graded once, by the
real engine (`grader.engine.run_day`) in a child process, several at a time: a
grading run spends most of its time waiting for its own children. Only the labs
that the selected tests use are graded, so `pytest -k fork_renumbers` stays quick.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.checks import mutation

COURSE = mutation.KIT / "course.toml"
EXERCISES = ("E1", "E2", "E3", "E4", "E5")

GRADE = """
import json, sys
from pathlib import Path
from grader.course import load_course
from grader.engine import run_day
course = load_course(sys.argv[1])
result = run_day(course, course.find_day("day-07"), Path(sys.argv[2]))
print(json.dumps({"duration": result.duration, "passed": result.passed, "total": result.total,
                  "bonus_passed": result.bonus_passed, "bonus_total": result.bonus_total,
                  "checks": [c.to_dict() for c in result.all_results()]}))
"""


@dataclass
class Graded:
    name: str
    lab: Path
    report: dict
    tree_before: str
    tree_after: str
    cwd_left: list[str]

    @property
    def statuses(self) -> dict[str, str]:
        return {c["id"]: c["status"] for c in self.report["checks"]}

    @property
    def failing(self) -> set[str]:
        return {check_id for check_id, status in self.statuses.items() if status != "passed"}

    def check(self, check_id: str) -> dict:
        return next(c for c in self.report["checks"] if c["id"] == check_id)

    def explain(self) -> str:
        return "\n".join(f"  {c['id']}: {c['status']}: {c['message']} | seen: {c['seen']}"
                         for c in self.report["checks"] if c["status"] != "passed") or "  (all passed)"


def tree_hash(root: Path) -> str:
    """Every path and every byte under root, __pycache__ included: grading must add nothing."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def lab_specs() -> dict[str, dict]:
    """name -> how to build it (the keyword arguments of mutation.build_lab)."""
    specs: dict[str, dict] = {"solution": {}, "scaffold-lab": {"revert": None}}
    specs.update({f"revert-{e}": {"revert": {e}} for e in EXERCISES})
    for kind in ("mutants", "alternates"):
        specs.update({f"{kind}/{p.name}": {"patch": p} for p in mutation.patches(kind)})
    return specs


def grade(name: str, spec: dict, base: Path) -> Graded:
    lab = mutation.build_lab(base / name.replace("/", "-") / "day-07-session-resume", **spec)
    cwd = lab.parent / "cwd"
    cwd.mkdir()
    before = tree_hash(lab)
    env = dict(os.environ, PYTHONPATH=str(mutation.KIT), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", GRADE, str(COURSE), str(lab)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"grading {name} crashed:\n{done.stderr[-3000:]}")
    return Graded(name, lab, json.loads(done.stdout.strip().splitlines()[-1]), before, tree_hash(lab),
                  sorted(p.name for p in cwd.iterdir()))


class Gradings:
    """Grades the needed labs in a thread pool; `get(name)` waits for one."""

    def __init__(self, names: list[str], base: Path):
        self.specs = lab_specs()
        self.base = base
        self.pool = ThreadPoolExecutor(max_workers=min(4, (os.cpu_count() or 1) + 1))
        self.futures: dict[str, Future] = {}
        for name in names:
            self._submit(name)

    def _submit(self, name: str) -> Future:
        if name not in self.futures:
            self.futures[name] = self.pool.submit(grade, name, self.specs[name], self.base)
        return self.futures[name]

    def get(self, name: str) -> Graded:
        return self._submit(name).result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="session")
def gradings(request, tmp_path_factory) -> Gradings:
    wanted = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        names = [callspec.params["lab_name"]] if callspec and "lab_name" in callspec.params else []
        names += getattr(item.function, "labs_used", [])
        wanted += [n for n in names if n not in wanted]
    runs = Gradings(wanted, tmp_path_factory.mktemp("graded"))
    yield runs
    runs.close()
