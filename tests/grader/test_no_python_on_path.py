"""Fair on every machine: a PATH with `python3` but no `python` costs a correct lab nothing.

Debian and Ubuntu without python-is-python3, recent macOS and Gradescope's images have no
`python` command. The kit's quick start makes the virtualenv from the system's `python3`;
this test builds that machine, whatever interpreter runs the suite: a directory of links
to every command of /usr/bin and /bin except a `python`, the suite's base interpreter as
the only `python3` of a prefix of its own, and a virtualenv made from that `python3` that
sees the kit's packages. Then
`env -i HOME=... PATH=<that directory> <venv>/bin/grader check DAY --lab solutions/...`
must give full marks: the children find `python` first on their PATH (grader/spawn/lab.py,
`python_dir`), so the mock's `python -m unittest` runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from grader.course import load_course
from grader.spawn.lab import base_python

KIT = Path(__file__).resolve().parents[2]
DAYS = [day.id for day in load_course(KIT / "course.toml").days]  # every day the course has

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="builds a Linux PATH of links")


@pytest.fixture(scope="module")
def no_python_machine(tmp_path_factory):
    root = tmp_path_factory.mktemp("machine")
    view = root / "bin"
    view.mkdir()
    for directory in ("/usr/bin", "/bin"):
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            if entry.name.startswith("python") or (view / entry.name).exists():
                continue
            (view / entry.name).symlink_to(entry.path)
    # The interpreter in a prefix of its own whose bin/ holds only `python3` (a pyenv or Homebrew
    # interpreter's own directory holds a `python`, and a link would lead back to it): a copy of
    # the binary, its standard library linked in beside it.
    real = Path(os.path.realpath(base_python()))
    prefix = root / "interpreter"
    (prefix / "bin").mkdir(parents=True)
    shutil.copy2(real, prefix / "bin" / "python3")
    for name in ("lib", "lib64"):
        if (real.parent.parent / name).is_dir():
            (prefix / name).symlink_to(real.parent.parent / name)
    path = os.pathsep.join([str(prefix / "bin"), str(view)])
    assert shutil.which("python", path=path) is None
    venv = root / "v"
    subprocess.run([str(prefix / "bin" / "python3"), "-m", "venv", "--without-pip", str(venv)], check=True,
                   env={"PATH": path, "HOME": str(root)}, timeout=120)
    site = Path(subprocess.run([str(venv / "bin" / "python3"), "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # the kit's own packages (and its editable install) seen from the new virtualenv, as pip would install them
    (site / "kit.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n",
                                  encoding="utf-8")
    return {"HOME": os.environ.get("HOME", str(root)), "PATH": path}, venv


@pytest.mark.parametrize("day", DAYS)
def test_the_reference_solution_gets_full_marks_without_python_on_path(no_python_machine, day):
    env, venv = no_python_machine
    lab = next((KIT / "solutions").glob(f"{day}-*"))
    done = subprocess.run([str(venv / "bin" / "python3"), "-m", "grader", "check", day, "--lab", str(lab),
                           "--json", "--jobs", "2"], cwd=KIT, env=env, capture_output=True, text=True,
                          timeout=600)
    report = json.loads(done.stdout)
    failed = {c["id"]: c.get("message") for c in report["checks"] if c["status"] != "passed"}
    assert failed == {}, failed
    assert report["passed"] == report["total"] and report["bonus_passed"] == report["bonus_total"]
    assert done.returncode == 0, done.stderr[-2000:]
