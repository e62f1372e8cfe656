"""docs/adding-a-day.md works as written.

Its example day is taken from the page, file by file (each file is a code block under a
line naming its path), and added to a scratch copy of the kit in the page's order; the
commands of its steps 5 and 7 run there with the copy's own grader package; `grader
verify day-99` must hold; then the day is removed as the page's last section says and
nothing else has drifted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-day.md"
FILE_BLOCK = re.compile(r"^`([^`\s]+)`:\n\n```[a-z]*\n(.*?)```$", re.S | re.M)
SECTION = re.compile(r"^## (\d+)\. .*?(?=^## |\Z)", re.S | re.M)
COMMAND_BLOCK = re.compile(r"```bash\n(.*?)```", re.S)


def guide_files() -> dict[str, str]:
    return dict(FILE_BLOCK.findall(GUIDE.read_text(encoding="utf-8")))


def guide_commands(*steps: int) -> list[str]:
    """The `python -m ...` lines of the given steps' command blocks, in order."""
    text = GUIDE.read_text(encoding="utf-8")
    lines = []
    for section in SECTION.finditer(text):
        if int(section.group(1)) in steps:
            for block in COMMAND_BLOCK.findall(section.group(0)):
                lines += [line.split("#")[0].strip() for line in block.splitlines() if line.startswith("python -m")]
    return lines


def copy_kit(destination: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (destination / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / rel)


@pytest.fixture()
def kit(tmp_path) -> Path:
    if not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout of the kit (it copies the files git knows)")
    copy = tmp_path / "kit"
    copy_kit(copy)
    return copy


def run(kit: Path, command: str | list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    """A guide command (`python -m ...`, or the interpreter's arguments) in the copy, with the
    copy's grader package first on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST_"))}
    env["PYTHONPATH"] = str(kit)
    argv = [sys.executable, *(command.split()[1:] if isinstance(command, str) else command)]
    return subprocess.run(argv, cwd=kit, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_guide_names_every_file_of_its_example():
    files = guide_files()
    assert {"source/agent/mca/shout.py", "source/sheets/day-99-example.md", "source/sheets/day-99-example.zh.md",
            "grader/checks/day99/__init__.py", "grader/checks/day99/checks.py", "grader/checks/day99/messages.toml",
            "grader/checks/day99/messages.zh.toml", "grader/checks/day99/course.zh.toml",
            "course.toml"} == set(files)
    assert guide_commands(5) == ["python -m grader.scaffold day-99"]
    assert guide_commands(7) == ["python -m grader.integrity --update"]


def test_the_guide_adds_a_day_that_verify_holds_and_removes_it_again(kit):
    files = guide_files()
    manifest = kit / "course.toml"
    before = manifest.read_text(encoding="utf-8")
    imported = run(kit, ["-c", "import grader; print(grader.__file__)"])
    assert imported.stdout.strip() == str(kit / "grader" / "__init__.py"), imported.stderr
    for rel, body in files.items():   # steps 1 to 3: the code, the sheet, the checks
        if rel != "course.toml":
            (kit / rel).parent.mkdir(parents=True, exist_ok=True)
            (kit / rel).write_text(body, encoding="utf-8")
    manifest.write_text(before.rstrip("\n") + "\n\n" + files["course.toml"], encoding="utf-8")   # step 4, last
    for command in guide_commands(5, 7):
        done = run(kit, command)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    assert (kit / "labs/day-99-example/mca/shout.py").is_file()
    assert "TODO(E1)" in (kit / "labs/day-99-example/mca/shout.py").read_text(encoding="utf-8")
    verified = run(kit, "python -m grader verify day-99")
    assert verified.returncode == 0 and "FAIL" not in verified.stdout, verified.stdout + verified.stderr
    assert re.search(r"verify: all \d+ items hold", verified.stdout), verified.stdout
    unchanged = run(kit, "python -m grader.scaffold --check")
    assert unchanged.returncode == 0, unchanged.stdout + unchanged.stderr

    # Removing a day: the manifest section, the folders and files of its own, then the record.
    manifest.write_text(before, encoding="utf-8")
    for rel in files:
        if rel != "course.toml":
            (kit / rel).unlink()
    for folder in ("grader/checks/day99", "labs/day-99-example", "solutions/day-99-example"):
        shutil.rmtree(kit / folder)
    clean = run(kit, "python -m grader.scaffold --check")
    assert clean.returncode == 0 and "every solution and lab equals the generated one" in clean.stdout, clean.stdout
    assert run(kit, "python -m grader.integrity --update").returncode == 0
    record = "grader/shipped.sha256"
    assert (kit / record).read_bytes() == (ROOT / record).read_bytes(), "the record is the kit's again"
