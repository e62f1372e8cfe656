"""`grader gradescope bundle`: the zip Gradescope's autograder contract asks for, run end to
end in a temp root standing in for /autograder (AUTOGRADER_ROOT): unzip into source/,
setup.sh (a venv in the root, the pinned dependencies, the kit), then run_autograder on
two submissions side by side: the solution's files as they are, and the untouched lab
as a folder inside a folder. Each results.json is held to Gradescope's format. The
steps run_autograder takes (find-lab, no-result) are tested on their own below."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli import app
from grader.course import load_course
from grader.release import gradescope as gradescope_bundle
from tests.release.conftest import ROOT, child_env

COURSE = load_course(ROOT / "course.toml")
DAY = COURSE.find_day("day-07")
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    result = CliRunner().invoke(app, ["--course", str(ROOT), "--lang", "en", "gradescope", "bundle", "day-07",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "Gradescope's autograder for day-07" in result.stdout
    return out


def assert_gradescope_results(data: dict) -> None:
    """results.json as Gradescope's autograder specification describes it."""
    assert isinstance(data["score"], (int, float)) and isinstance(data["max_score"], (int, float))
    assert isinstance(data.get("output", ""), str) and data.get("visibility", "visible") in VISIBILITY
    assert isinstance(data.get("execution_time", 0), int)
    assert isinstance(data["tests"], list)
    for test in data["tests"]:
        assert set(test) <= {"score", "max_score", "status", "name", "name_format", "number", "output",
                             "output_format", "tags", "visibility", "extra_data"}, test
        assert isinstance(test["name"], str) and test["name"]
        assert isinstance(test["score"], (int, float)) and isinstance(test["max_score"], (int, float))
        assert 0 <= test["score"] <= test["max_score"] or test["max_score"] == 0
        assert test["status"] in ("passed", "failed") and isinstance(test["output"], str)
        assert test["visibility"] in VISIBILITY
    if data["tests"]:
        assert sum(t["score"] for t in data["tests"]) == data["score"]
        assert sum(t["max_score"] for t in data["tests"]) == data["max_score"]
    json.dumps(data)


def test_the_zip_has_the_two_scripts_at_its_root_and_a_pinned_kit(bundle):
    with zipfile.ZipFile(bundle) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        for script in ("setup.sh", "run_autograder"):
            assert (infos[script].external_attr >> 16) & 0o111, f"{script} is not executable"
            assert archive.read(script).startswith(b"#!/usr/bin/env bash\n")
        requirements = archive.read("requirements.txt").decode().splitlines()
        kit = [name for name in infos if name.startswith("kit/")]
        run = archive.read("run_autograder").decode()
    assert "check \"$DAY\" --lab \"$lab\" --ci --gradescope \"$RESULTS\"" in run and 'DAY="day-07"' in run
    # --sandbox only where the probe says a PID namespace can be made there
    assert '-m grader.spawn.sandbox > /dev/null 2>&1; then\n    SANDBOX="--sandbox"' in run
    assert '--gradescope "$RESULTS" $SANDBOX' in run and 'SANDBOX=""' in run
    pins = [line for line in requirements if line and not line.startswith("#")]
    assert pins and all("==" in line for line in pins), requirements
    assert {p.split("==")[0].lower().replace("_", "-") for p in pins} >= {"typer", "pytest", "pytest-httpserver"}
    assert "kit/course.toml" in kit and "kit/grader/checks/day07/checks.py" in kit
    assert not [n for n in kit if n.startswith(("kit/solutions/", "kit/source/", "kit/tests/"))]
    assert not [n for n in kit if n.startswith("kit/grader/checks/day0") and "/day07/" not in n]
    assert [n for n in kit if n.startswith("kit/labs/")] and not [n for n in kit if "day-06" in n]


def _submit(root: Path, files_from: Path, inside: str | None) -> None:
    submission = root / "submission"
    target = submission / inside if inside else submission
    shutil.copytree(files_from, target, ignore=shutil.ignore_patterns("__pycache__", ".sessions"))


@pytest.mark.skipif(shutil.which("unzip") is None, reason="the README's recipe uses unzip")
def test_the_readme_recipe_sets_up_and_grades_the_untouched_lab_then_the_solution(tmp_path, python3_on_path):
    """The kit README's Gradescope recipe as written (only the zip's path is a temp one),
    then the solution uploaded as a folder inside a folder, graded in the same root."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Gradescope\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
    make, try_it = re.findall(r"```sh\n(.*?)```", section, re.S)
    zipped = tmp_path / "autograder.zip"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    grader_bin = Path(sys.executable).parent
    env = dict(python3_on_path, AUTOGRADER_PYTHON=sys.executable, TMPDIR=str(scratch),
               PATH=f"{python3_on_path['PATH']}{os.pathsep}{grader_bin}")
    script = "set -eu\n" + (make + try_it).replace("autograder.zip", str(zipped))
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"^day-07 +untouched lab scores 4/11 +ok$", done.stdout, re.M), done.stdout[-3000:]
    assert "verify: all 2 items hold" in done.stdout
    lab = json.loads(done.stdout[done.stdout.rindex("\n{\n") + 1:])
    (root,) = scratch.iterdir()    # the recipe's $root

    shutil.rmtree(root / "submission")
    _submit(root, ROOT / "solutions" / DAY.slug, f"my-work/{DAY.slug}")   # a folder holding the lab folder
    again = subprocess.run([str(root / "run_autograder")], cwd=root, env=dict(env, AUTOGRADER_ROOT=str(root)),
                           capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    solution = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    for data in (solution, lab):
        assert_gradescope_results(data)
        assert data["max_score"] == len(DAY.checks_core) == 11
        assert [t["name"] for t in data["tests"]][:11] == [c.id for c in DAY.checks_core]
    assert solution["score"] == 11 and all(t["status"] == "passed" for t in solution["tests"])
    assert lab["score"] == 4 and "day-07: 4/11 passed" in lab["output"]
    failing = [t for t in lab["tests"] if t["status"] == "failed" and t["max_score"] == 1]
    assert len(failing) == 7 and all("hint: " in t["output"] for t in failing)
    assert isinstance(lab["extra_data"]["seed"], int)
    # the submission itself was not changed
    assert (root / "submission/my-work" / DAY.slug / "mca/session/replay.py").read_bytes() == \
        (ROOT / "solutions" / DAY.slug / "mca/session/replay.py").read_bytes()


# --------------------------------------------------------------------------- the steps, one by one

@pytest.fixture
def cli():
    runner = CliRunner()
    return lambda *args: runner.invoke(app, ["--course", str(ROOT), "--lang", "en", *map(str, args)])


def lab_copy(where: Path) -> Path:
    shutil.copytree(ROOT / "labs" / DAY.slug, where, ignore=shutil.ignore_patterns("__pycache__"))
    return where


@pytest.mark.parametrize("layout", ["contents", "folder", "clone"])
def test_find_lab_takes_the_lab_however_it_was_uploaded(tmp_path, cli, layout):
    submission = tmp_path / "submission"
    if layout == "contents":
        expected = lab_copy(submission)
    elif layout == "folder":
        expected = lab_copy(submission / DAY.slug)
    else:   # a whole clone of the students' repository: several days' labs, and the pristine copies
        expected = lab_copy(submission / "agent-lab-student/labs" / DAY.slug)
        lab_copy(submission / "agent-lab-student/grader/edition/labs" / DAY.slug)
        shutil.copytree(ROOT / "labs/day-06-errors-recovery", submission / "agent-lab-student/labs/day-06")
        (submission / "__MACOSX").mkdir()
    result = cli("gradescope", "find-lab", "day-07", submission, "--results", tmp_path / "results.json")
    assert result.exit_code == 0, result.stderr
    assert Path(result.stdout.strip()) == expected
    assert not (tmp_path / "results.json").exists()


def test_find_lab_without_a_lab_writes_a_zero_score_that_says_what_to_upload(tmp_path, cli):
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "replay.py").write_text("print('my replay')\n")
    results = tmp_path / "results" / "results.json"
    result = cli("gradescope", "find-lab", "day-07", submission, "--results", results)
    assert result.exit_code == 1
    data = json.loads(results.read_text(encoding="utf-8"))
    assert_gradescope_results(data)
    assert data["score"] == 0 and data["max_score"] == 11
    assert "No day-07 lab was found" in data["output"] and "replay.py" in data["output"]
    assert "labs/day-07-session-resume" in data["output"]


def test_find_lab_refuses_two_labs_it_cannot_tell_apart(tmp_path, cli):
    submission = tmp_path / "submission"
    lab_copy(submission / "a" / DAY.slug)
    lab_copy(submission / "b" / DAY.slug)
    results = tmp_path / "results.json"
    result = cli("gradescope", "find-lab", "day-07", submission, "--results", results)
    assert result.exit_code == 1
    assert "more than one day-07 lab" in json.loads(results.read_text(encoding="utf-8"))["output"]


@pytest.mark.parametrize("code, says", [(2, "could not grade this submission (exit status 2)"),
                                         (3, "its own files changed while your code ran")])
def test_no_result_writes_the_graders_message_as_a_zero_score(tmp_path, cli, code, says):
    stderr = tmp_path / "stderr.txt"
    stderr.write_text("grader: not a day-07 lab: it has no mca/ package. Fix: ...\n")
    results = tmp_path / "results.json"
    result = cli("gradescope", "no-result", "day-07", "--results", results, "--exit-code", code, "--stderr", stderr)
    assert result.exit_code == 0
    data = json.loads(results.read_text(encoding="utf-8"))
    assert_gradescope_results(data)
    assert data["score"] == 0 and says in data["output"] and "not a day-07 lab" in data["output"]


def test_no_result_leaves_a_real_result_alone(tmp_path, cli):
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"score": 4, "max_score": 11, "tests": []}))
    before = results.read_bytes()
    assert cli("gradescope", "no-result", "day-07", "--results", results, "--exit-code", 1).exit_code == 0
    assert results.read_bytes() == before


def test_a_bundle_is_refused_over_an_existing_file_and_into_a_folder(tmp_path, cli):
    taken = tmp_path / "autograder.zip"
    taken.write_text("not mine to replace\n")
    result = cli("gradescope", "bundle", "day-07", "-o", taken)
    assert result.exit_code == 2 and "--force" in result.stderr
    assert taken.read_text() == "not mine to replace\n"
    assert cli("gradescope", "bundle", "day-07", "-o", tmp_path).exit_code == 2


def test_the_pins_are_the_installed_versions():
    from importlib import metadata

    lines, unpinned = gradescope_bundle.pinned_requirements(COURSE)
    assert unpinned == []
    for line in lines:
        name, version = line.split("==")
        assert metadata.version(name) == version


def test_the_zip_holds_no_solution_region_of_the_day_it_grades(bundle):
    """The kit in the zip read as the release's leak search reads the student edition: no
    solution line of any day outside the labs built on it, and none of day 07's at all."""
    from grader import release
    edition = release.Edition(tuple(COURSE.days))
    with zipfile.ZipFile(bundle) as archive:
        for name in archive.namelist():
            if name.startswith("kit/") and not name.endswith("/"):
                edition.add(name[len("kit/"):], archive.read(name))
    assert [n for n in edition.files if n.startswith(f"labs/{DAY.slug}/")], "the graded day's lab is in the zip"
    leaks = release.find_leaks(COURSE, edition)
    assert leaks == [], leaks
    from grader import scaffold
    tree, _ = scaffold.build(COURSE, DAY, lab=True)
    shown = {line.strip() for data in tree.values() for line in data.decode("utf-8", "replace").splitlines()}
    regions = release.solution_regions(COURSE)
    graded = {text for key, region in regions.items() if key[0] == DAY.id for _, text in region.lines
              if len(text) >= release.LONG_LINE and text not in shown}  # what the lab itself shows is no answer
    assert graded, "the search has lines of the graded day to look for"
    pasted = [(name, text) for name, data in edition.files.items() if name.endswith((".py", ".md", ".toml"))
              for text in graded if text in {line.strip() for line in data.decode("utf-8", "replace").splitlines()}]
    assert pasted == [], pasted[:5]
