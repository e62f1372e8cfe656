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
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader import engine
from grader.course import load_course
from grader.spawn import hermetic
from grader.spawn import lab as lab_module

KIT = Path(__file__).resolve().parents[2]
COURSE = load_course(KIT / "course.toml")
DAY = COURSE.find_day("day-01")

PROBE = r'''
import glob, json, os, sys
kit = KIT_PATH
found = {}
found["env"] = dict(os.environ)
found["argv"] = list(sys.argv)
found["cmdline"] = open("/proc/self/cmdline", "rb").read().decode(errors="replace").split("\0")[:-1]
found["path"] = list(sys.path)
found["flags"] = {name: getattr(sys.flags, name) for name in dir(sys.flags)
                  if not name.startswith("_") and isinstance(getattr(sys.flags, name), int)}
found["handed"] = [a for a in sys.argv if a.startswith("/")]
found["cwd"] = os.getcwd()
found["cwd_hex"] = os.getcwd().encode().hex()  # as the child saw it: the grader reads printed paths back in its own
found["tmp_listing"] = sorted(os.listdir(tempfile_dir)) if os.path.isdir(tempfile_dir := "/tmp") else None
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
    (lab / COURSE.agent.package / "__main__.py").write_text(PROBE.replace("KIT_PATH", repr(str(KIT))),
                                                            encoding="utf-8")
    return lab


def probe(lab: Path, hermetic_mode: bool, tty: bool = False, harness: bool = False) -> dict:
    run_root = Path(tempfile.mkdtemp()).resolve()
    saved = os.environ.get(engine.HERMETIC_VAR)
    os.environ[engine.HERMETIC_VAR] = "1" if hermetic_mode else "0"
    try:
        context = engine._context(COURSE, DAY, lab, run_root, seed=1, keep=False)
        context.current = "no-doubled-text"
        cwd = context.workspace("no-doubled-text")
        assert (context.runner.hermetic is not None) == hermetic_mode
        if harness:  # a check of the third kind: grader code that calls the lab, in a child of its own
            code = "import mca  # noqa: F401 - the lab is importable here\n" + \
                PROBE.replace("KIT_PATH", repr(str(KIT)))
            script = context.harness("timeout_group", code)
            result = context.run_harness(script, str(script.parent / "tmpjob.json"), cwd=cwd, timeout=30)
        elif tty:
            with context.start_agent(cwd=cwd, tty=True) as child:
                result = child.wait(30)
        else:
            result = context.run_agent("what is my name?", cwd=cwd, timeout=30)
    finally:
        if saved is None:
            os.environ.pop(engine.HERMETIC_VAR, None)
        else:
            os.environ[engine.HERMETIC_VAR] = saved
        shutil.rmtree(run_root, ignore_errors=True)
    lines = [line for line in result.stdout.replace("\r\n", "\n").splitlines() if line.startswith("{")]
    assert lines, result.stdout + result.stderr
    return json.loads(lines[-1])


TELLS = ("grader", "pytest", "harness", "timeout_group", "no-doubled-text", "day-01", "course.toml", str(KIT))
TOKEN = None  # no variable marks a child or its descendants any more (day 4 walks its own process tree)
# What a lab child's environment may hold beyond the shell's it was started from: what the check
# sets (the mock's switch, the agent's variables, the lab on PYTHONPATH as the reproduce line
# sets it, a terminal's TERM), the `python` links first on PATH, and two settings for the
# agent's own children that many shells have too (docs/reliability.md).
ADDED = {"MOCK", "PYTHONPATH", "TERM", "PYTHONDONTWRITEBYTECODE", "NO_COLOR"}


def person(lab: Path, *args: str, cwd: Path) -> dict:
    """The probe run as a person runs the agent: `PYTHONPATH=LAB python -m mca ARGS` from a
    workspace, in the shell the suite itself was started from (without pytest's variables)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GRADER_", "PYTHONPATH"))}
    env.update(COURSE.agent.mock_env, PYTHONPATH=str(lab))
    done = subprocess.run([lab_module.base_python(), "-m", COURSE.agent.package, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    return json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])


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
def test_in_a_hermetic_run_the_working_directory_is_in_home_not_in_the_temporary_directory(probing_lab):
    """A workdir under /tmp (or $TMPDIR) says "made by a program": in the view the scratch root is
    a folder in HOME, with ordinary names all the way down, and /tmp is empty."""
    seen = probe(probing_lab, True)
    cwd = bytes.fromhex(seen["cwd_hex"]).decode()
    home = seen["env"]["HOME"]
    assert cwd.startswith(home.rstrip("/") + "/"), (cwd, home)
    assert not cwd.startswith(("/tmp/", tempfile.gettempdir() + "/")), cwd
    parts = cwd[len(home):].strip("/").split("/")
    assert not [p for p in parts if p.startswith("tmp")], cwd
    assert tells(cwd) == [], cwd
    assert seen["tmp_listing"] == [], seen["tmp_listing"]
    assert seen["cwd"] != cwd  # ... and what it printed came back to the grader in the grader's own paths


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


@needs_bwrap
@pytest.mark.parametrize("kind", ["one-shot", "repl", "harness"])
def test_in_a_hermetic_run_no_probe_of_any_kind_of_check_sees_a_tell(probing_lab, kind):
    """A check of each kind (the CLI one-shot, the REPL on a terminal, a harness call): no name
    of the grader, pytest, a harness, a check or the kit in the environment (names and values),
    the command line, sys.argv, sys.path, the paths handed over, the cwd, the parents; no
    variable a person's shell would not have; no kit in the file system; no other process."""
    seen = probe(probing_lab, True, tty=kind == "repl", harness=kind == "harness")
    shell = {k for k in os.environ if not k.startswith(("PYTEST_", "GRADER_", "PYTHON"))}
    extra = {k for k in seen["env"] if k not in shell and k not in ADDED and not k.startswith(COURSE.agent.env_prefix)}
    assert extra == set(), extra
    assert {k: v for k, v in seen["env"].items() if tells(k.lower()) or tells(v)} == {}
    for what in ("argv", "cmdline", "path", "handed"):
        assert [item for item in seen[what] if tells(item)] == [], (what, seen[what])
    assert tells(seen["cwd"]) == [] and seen["kit_files"] == [] and seen["kit_root_exists"] is False
    assert [p for p in seen["parents"] if tells(p["cmdline"]) or tells(p["cwd"])] == []
    assert [c for c in seen["processes"] if tells(c)] == [] and len(seen["processes"]) <= 3
    assert seen["tty"] == ([True] * 3 if kind == "repl" else [False] * 3)


@needs_bwrap
def test_in_a_hermetic_run_the_agent_starts_as_a_person_starts_it(probing_lab, tmp_path):
    """`python -m mca` as a person types it, and the same agent in a graded run: the same command
    line (but for `-u`, which a check on pipes needs to see output as it comes), sys.argv,
    sys.flags and sys.path (but the lab's and the workspace's own places)."""
    seen = probe(probing_lab, True)
    (tmp_path / "workspace").mkdir()
    plain = person(probing_lab, "what is my name?", cwd=tmp_path / "workspace")
    graded_cmdline = [a for a in seen["cmdline"][1:] if a != "-u"]
    assert graded_cmdline == plain["cmdline"][1:] == ["-m", COURSE.agent.package, "what is my name?"]
    assert os.path.realpath(seen["cmdline"][0]) == os.path.realpath(plain["cmdline"][0])
    assert seen["flags"] == plain["flags"]
    assert [Path(a).name for a in seen["argv"]] == [Path(a).name for a in plain["argv"]]
    assert seen["argv"][1:] == plain["argv"][1:]
    assert seen["path"][0] == seen["cwd"] and plain["path"][0] == plain["cwd"]
    assert Path(seen["path"][1]).name == "lab" and plain["path"][1] == str(probing_lab)
    assert seen["path"][2:] == plain["path"][2:]


def test_in_the_weaker_mode_the_agent_is_started_by_a_launcher_a_lab_can_see(probing_lab):
    """What docs/reliability.md says of the mode without bwrap: the interpreter runs isolated
    (-I -S, so the grader package and the grader's PYTHON* settings stay out) through a
    launcher; a lab that reads its own command line or sys.flags sees that."""
    seen = probe(probing_lab, False)
    assert "-I" in seen["cmdline"] and "-c" in seen["cmdline"] and seen["flags"]["isolated"] == 1
    assert [item for item in seen["cmdline"] + seen["path"] if tells(item)] == []
