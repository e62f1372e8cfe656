"""Labs that look for the grader: in a hermetic run, each probe finds nothing.

A lab that can tell it is graded can behave only then; a lab that finds the kit can run
`solutions/`. The probing lab here replaces `python -m mca` with probes of what a child
can see: its environment, its working directory, its parent chain (/proc/self/status),
whether it has a terminal, and the file system (a `course.toml` above its directories or
anywhere a glob reaches, a `solutions/` folder, the kit's own root, an importable grader,
other processes in /proc). It is started exactly as a check starts the lab's agent
(the engine's own LabRunner, scratch dirs and all), in hermetic mode and in the weaker
one; what the weaker mode still shows is asserted too, as docs/reliability.md states it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from grader import engine
from grader.course import load_course
from grader.spawn import child as child_module
from grader.spawn import hermetic

KIT = Path(__file__).resolve().parents[2]
COURSE = load_course(KIT / "course.toml")
DAY = COURSE.find_day("day-01")

PROBE = r'''
import glob, json, os, sys
kit = sys.argv[1]
found = {}
found["env"] = dict(os.environ)
found["cwd"] = os.getcwd()
chain, pid = [], os.getpid()
for _ in range(20):
    try:
        status = open(f"/proc/{pid}/status").read()
        pid = int(status.split("PPid:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        break
    if pid <= 0:
        break
    try:
        cmdline = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        cmdline = "?"
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        cwd = "?"
    chain.append({"pid": pid, "cmdline": cmdline, "cwd": cwd})
found["parents"] = chain
found["tty"] = [os.isatty(fd) for fd in (0, 1, 2)]
courses = set()
for start in {os.getcwd(), *sys.path, os.path.dirname(os.path.abspath(__file__ if "__file__" in dir() else "."))}:
    here = os.path.abspath(start or ".")
    while True:
        for name in ("course.toml", "solutions", "grader"):
            if os.path.exists(os.path.join(here, name)):
                courses.add(os.path.join(here, name))
        if os.path.dirname(here) == here:
            break
        here = os.path.dirname(here)
for pattern in ("/*/course.toml", "/*/*/course.toml", "/*/*/*/course.toml", "/tmp/*/*/course.toml"):
    courses.update(glob.glob(pattern))
found["kit_files"] = sorted(courses)
found["kit_root_exists"] = os.path.exists(kit)
try:
    import grader  # noqa: F401
    found["grader_importable"] = True
except ImportError:
    found["grader_importable"] = False
others = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            others.append(open(f"/proc/{entry}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass
found["processes"] = others
print(json.dumps(found))
'''


@pytest.fixture(scope="module")
def probing_lab(tmp_path_factory):
    lab = tmp_path_factory.mktemp("probing") / "day-01-repl-gateway"
    shutil.copytree(DAY.solution, lab, ignore=shutil.ignore_patterns("__pycache__"))
    (lab / COURSE.agent.package / "__main__.py").write_text(PROBE, encoding="utf-8")
    return lab


def probe(lab: Path, hermetic_mode: bool, tty: bool = False) -> dict:
    run_root = Path(tempfile.mkdtemp()).resolve()
    saved = os.environ.get(engine.HERMETIC_VAR)
    os.environ[engine.HERMETIC_VAR] = "1" if hermetic_mode else "0"
    try:
        context = engine._context(COURSE, DAY, lab, run_root, seed=1, keep=False)
        context.current = "no-doubled-text"
        cwd = context.workspace("no-doubled-text")
        assert (context.runner.hermetic is not None) == hermetic_mode
        if tty:
            with context.start_agent(str(KIT), cwd=cwd, tty=True) as child:
                result = child.wait(30)
        else:
            result = context.run_agent(str(KIT), cwd=cwd, timeout=30)
    finally:
        if saved is None:
            os.environ.pop(engine.HERMETIC_VAR, None)
        else:
            os.environ[engine.HERMETIC_VAR] = saved
        shutil.rmtree(run_root, ignore_errors=True)
    lines = [line for line in result.stdout.replace("\r\n", "\n").splitlines() if line.startswith("{")]
    assert lines, result.stdout + result.stderr
    return json.loads(lines[-1])


TELLS = ("grader", "pytest", "no-doubled-text", "day-01", "course.toml", str(KIT))
# the token that marks a child's descendants, while spawn still sets one (a plain run has none either)
TOKEN = getattr(child_module, "TOKEN_VAR", None)


def tells(text: str) -> list[str]:
    return [t for t in TELLS if t in text]


def tells_beyond_the_argument(cmdline: str) -> list[str]:
    """A command line's tells, but for the kit's path this test itself passes the probe."""
    return tells(cmdline.replace(f" {KIT} ", " "))


needs_bwrap = pytest.mark.skipif(not hermetic.find().bwrap, reason=f"no hermetic mode here: {hermetic.find().why}")


@needs_bwrap
def test_in_a_hermetic_run_the_environment_names_neither_grader_nor_pytest(probing_lab):
    seen = probe(probing_lab, True)
    leaks = {k: v for k, v in seen["env"].items() if k != TOKEN and (tells(k.lower()) or tells(v))}
    assert leaks == {}
    assert not [k for k in seen["env"] if k.startswith(("GRADER_", "PYTEST_")) and k != TOKEN]
    assert {"HOME", "PATH", "MOCK"} <= set(seen["env"])


@needs_bwrap
def test_in_a_hermetic_run_the_working_directory_has_an_ordinary_name(probing_lab):
    seen = probe(probing_lab, True)
    assert tells(seen["cwd"]) == [], seen["cwd"]
    assert seen["cwd"].endswith("/workspace")


@needs_bwrap
def test_in_a_hermetic_run_no_parent_and_no_other_process_leads_to_the_kit(probing_lab):
    seen = probe(probing_lab, True)
    for parent in seen["parents"]:
        assert tells_beyond_the_argument(parent["cmdline"]) == [] and tells(parent["cwd"]) == [], parent
    assert len(seen["parents"]) <= 1  # the view's own init, nothing above it
    assert all(tells_beyond_the_argument(cmdline) == [] for cmdline in seen["processes"]), seen["processes"]
    assert len(seen["processes"]) <= 3  # init, this child (and its own `env` exec): no process of the machine


@needs_bwrap
def test_in_a_hermetic_run_the_file_system_holds_no_kit_no_solutions_no_grader(probing_lab):
    seen = probe(probing_lab, True)
    assert seen["kit_files"] == []
    assert seen["kit_root_exists"] is False
    assert seen["grader_importable"] is False


@needs_bwrap
def test_in_a_hermetic_run_a_terminal_check_gives_the_child_a_terminal(probing_lab):
    seen = probe(probing_lab, True, tty=True)
    assert seen["tty"] == [True, True, True]
    assert tells(seen["cwd"]) == []


def test_the_weaker_mode_hides_the_environment_and_names_but_not_the_machine(probing_lab):
    """What docs/reliability.md says of the mode without bwrap: the environment and the
    names are as clean, but the kit is on the same file system and the grader is a parent."""
    seen = probe(probing_lab, False)
    assert not [k for k in seen["env"] if k.startswith(("GRADER_", "PYTEST_")) and k != TOKEN]
    assert tells(seen["cwd"]) == []
    assert seen["kit_root_exists"] is True  # the kit is there for a lab that knows (or guesses) where
    assert any("grader" in p["cmdline"] or "pytest" in p["cmdline"] for p in seen["parents"])
