"""Grading runs shared by the tests of every day's checks.

Every lab the tests need (a day's solution, each mutant, each alternate, the scaffold
lab and the one-region reverts) is built in a temp dir and graded once, by the real
engine (`grader.engine.run_day`) in a child process, several at a time: a grading run
spends most of its time waiting for its own children. Only the labs that the selected
tests use are graded, so `pytest -k fork_renumbers` stays quick.

The child processes are grading servers that stay up (`SERVE`): each grades one lab after
another, as `grader watch` grades run after run in one process, so the interpreter's start
and the grader's imports are paid once per server, not once per lab. A server that fails
is not used again. The gradings that compare one check at a time with checks side by side
run in a fresh process of their own (`GRADE`), which is sure to hold one thread.

The checks generate their inputs from a seed. Each session draws one (or takes
$CORPUS_SEED), and every failure message names it: `CORPUS_SEED=N pytest ...`
grades the same inputs again.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import secrets
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.checks import corpus

SEED = int(os.environ.get("CORPUS_SEED") or secrets.randbelow(2**32))
# Seconds one grading of the corpus may take: a limit for a hung grading, not for a slow one
# (a scaffold lab graded beside the corpus at load 14 on 2 cores took more than 300).
GRADE_LIMIT = 900
# Read once, here: pytest sets and unsets PYTEST_CURRENT_TEST while the grading threads run,
# and copying os.environ in a thread then can raise KeyError.
GRADING_ENV = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}

GRADE = """
import json, sys
from pathlib import Path
from grader.course import load_course
from grader.engine import run_day
course = load_course(sys.argv[1])
select = sys.argv[5].split(",") if len(sys.argv) > 5 and sys.argv[5] else None
jobs = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[6] else None
result = run_day(course, course.find_day(sys.argv[2]), Path(sys.argv[3]), seed=int(sys.argv[4]), select=select,
                 jobs=jobs)
print(json.dumps(result.to_dict()))
"""

SERVE = """
import json, os, sys
from pathlib import Path
from grader.course import load_course
from grader.engine import run_day
course = load_course(sys.argv[1])
for line in sys.stdin:
    request = json.loads(line)
    os.chdir(request["cwd"])
    result = run_day(course, course.find_day(request["day"]), Path(request["lab"]), seed=request["seed"],
                     select=request["select"] or None, jobs=1)
    Path(request["out"]).write_text(json.dumps(result.to_dict()), encoding="utf-8")
    os.chdir(request["home"])
    sys.stdout.write("graded " + request["out"] + "\\n")
    sys.stdout.flush()
"""


class Server:
    """One grading server (SERVE) and the file its stderr goes to."""

    def __init__(self, base: Path, env: dict[str, str]):
        self.home = Path(tempfile.mkdtemp(prefix="server-", dir=base))
        self.stderr = open(self.home / "stderr", "wb")
        self.proc = subprocess.Popen([sys.executable, "-c", SERVE, str(corpus.KIT / "course.toml")], cwd=self.home,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                     text=True, start_new_session=True)

    def grade(self, request: dict, timeout: float) -> dict:
        self.proc.stdin.write(json.dumps(dict(request, home=str(self.home))) + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise subprocess.TimeoutExpired("grading server", timeout)
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the grading server stopped")
            if line.strip() == "graded " + request["out"]:
                return json.loads(Path(request["out"]).read_text(encoding="utf-8"))

    def tail(self) -> str:
        self.stderr.flush()
        return (self.home / "stderr").read_text(encoding="utf-8", errors="replace")[-3000:]

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.stderr.close()


class Servers:
    """Idle grading servers, shared by the pool's threads; one is started when none is idle."""

    def __init__(self):
        self.idle: queue.SimpleQueue = queue.SimpleQueue()
        self.made: list[Server] = []
        self.lock = threading.Lock()

    def grade(self, base: Path, env: dict[str, str], request: dict, name: str) -> dict:
        try:
            server = self.idle.get_nowait()
        except queue.Empty:
            server = Server(base, env)
            with self.lock:
                self.made.append(server)
        try:
            answer = server.grade(request, timeout=GRADE_LIMIT)
        except BaseException as exc:
            tail = server.tail()
            try:
                os.killpg(server.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            server.close()
            raise RuntimeError(f"grading {name} failed ({exc}):\n{tail}") from None
        self.idle.put(server)
        return answer

    def close(self) -> None:
        with self.lock:
            for server in self.made:
                server.close()


SERVERS = Servers()


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
        return {c["id"]: c["status"] for c in [*self.report["checks"], *self.report["bonus"]]}

    @property
    def failing(self) -> set[str]:
        return {check_id for check_id, status in self.statuses.items() if status != "passed"}

    def check(self, check_id: str) -> dict:
        return next(c for c in [*self.report["checks"], *self.report["bonus"]] if c["id"] == check_id)

    def explain(self) -> str:
        lines = [f"  {c['id']}: {c['status']}: {c['message']} | seen: {c['seen']}"
                 for c in [*self.report["checks"], *self.report["bonus"]] if c["status"] != "passed"]
        return "\n".join(lines or ["  (all passed)"]) + f"\n  (inputs: CORPUS_SEED={SEED})"


def tree_hash(root: Path) -> str:
    """Every path and every byte under root, __pycache__ included: grading must add nothing."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def lab_specs() -> dict[str, tuple]:
    """name -> (day, keyword arguments of corpus.build_lab)."""
    specs: dict[str, tuple] = {}
    for day in corpus.COURSE.days:
        specs[f"{day.id}/solution"] = (day, {})
        specs[f"{day.id}/scaffold-lab"] = (day, {"revert": None})
        # the same two graded with one check at a time (every other grading runs them side
        # by side, as `grader check` does): tests/checks/test_serial_equals_concurrent.py
        specs[f"{day.id}/solution@serial"] = (day, {})
        specs[f"{day.id}/scaffold-lab@serial"] = (day, {"revert": None})
        specs.update({f"{day.id}/revert-{e.id}": (day, {"revert": {e.id}}) for e in day.exercises})
        for kind in ("mutants", "alternates"):
            specs.update({f"{day.id}/{kind}/{p.name}": (day, {"patch": p}) for p in corpus.patches(day, kind)})
    return specs


_SPECS: dict[str, tuple] = {}


def lab_specs_cache() -> dict[str, tuple]:
    if not _SPECS:
        _SPECS.update(lab_specs())
    return _SPECS


def judged_checks(day, patch) -> set[str]:
    """The checks a mutant is graded with: those it must or may fail, and every core check
    that rests (course.toml `exercises` or `depends`) on a point one of those rests on, or on
    no point at all (provided code, which any change may break). A check that rests only on
    other points runs the solution's code for them, and a bonus check counts for no score:
    the solution, the alternates and the reverts are graded with every check, so the corpus
    does not grade those again for every mutant (it would double the corpus's time)."""
    named = patch.fails | patch.maybe
    points = {p for c in day.all_checks if c.id in named for p in (*c.exercises, *c.depends)}
    return {c.id for c in day.all_checks
            if c.id in named or (not c.bonus and (not (c.exercises or c.depends)
                                                   or points & {*c.exercises, *c.depends}))}


def grade(name: str, spec: tuple, base: Path) -> Graded:
    day, options = spec
    lab = corpus.build_lab(day, base / name.replace("/", "-") / Path(day.lab).name, **options)
    cwd = lab.parent / "cwd"
    cwd.mkdir()
    before = tree_hash(lab)
    # The grader's own bytecode, compiled once for every grading run (not into the kit's tree).
    env = dict(GRADING_ENV, PYTHONPATH=str(corpus.KIT), PYTHONPYCACHEPREFIX=str(base / "kit-pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    select = ",".join(sorted(judged_checks(day, options["patch"]))) if "/mutants/" in name else ""
    # the twins of the @serial gradings run side by side whatever the load (the default would
    # take one check at a time on a busy machine, and the comparison would prove nothing)
    jobs = "1" if name.endswith("@serial") else ("2" if f"{name}@serial" in lab_specs_cache() else "")
    if jobs:
        done = subprocess.run([sys.executable, "-c", GRADE, str(corpus.KIT / "course.toml"), day.id, str(lab),
                               str(SEED), select, jobs],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=GRADE_LIMIT)
        if done.returncode != 0:
            raise RuntimeError(f"grading {name} crashed:\n{done.stderr[-3000:]}")
        report = json.loads(done.stdout.strip().splitlines()[-1])
    else:
        report = SERVERS.grade(base, env, {"cwd": str(cwd), "day": day.id, "lab": str(lab), "seed": SEED,
                                           "select": select.split(",") if select else None,
                                           "out": str(lab.parent / "report.json")}, name)
    return Graded(name, lab, report, before, tree_hash(lab), sorted(p.name for p in cwd.iterdir()))


class Gradings:
    """Grades the needed labs in a thread pool; `get(name)` waits for one."""

    def __init__(self, names: list[str], base: Path):
        self.specs = lab_specs()
        self.base = base
        self.pool = ThreadPoolExecutor(max_workers=min(4, (os.cpu_count() or 1) + 2))
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
        SERVERS.close()


def uses(*names):
    """Tell the `gradings` fixture which labs a non-parametrized test needs."""
    def mark(function):
        function.labs_used = list(names)
        return function
    return mark


def labs_wanted(items) -> list[str]:
    """Every lab the given tests grade: those that use the `gradings` fixture name it (their
    lab_name parameter, or @uses). A test that takes a lab_name only to read the corpus entry
    (its patch's FAILS, say) grades nothing: its lab is not graded for it."""
    wanted: list[str] = []
    for item in items:
        if "gradings" not in getattr(item, "fixturenames", ()):
            continue
        callspec = getattr(item, "callspec", None)
        names = [callspec.params["lab_name"]] if callspec and "lab_name" in callspec.params else []
        names += getattr(getattr(item, "function", None), "labs_used", [])
        wanted += [n for n in names if n not in wanted]
    return wanted
