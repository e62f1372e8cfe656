"""The README's "Grading a class" recipe, run as written: from the kit's root in bash,
with `grader` on PATH, it grades a class of three and prints the rows it promises."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.classroom.conftest import KIT

README = (KIT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no section '## {title}'"
    return match.group(1)


def test_the_class_recipe_works_as_written(tmp_path):
    text = section("Grading a class")
    (recipe,) = re.findall(r"```sh\n(.*?)```", text, re.S)
    promised = re.findall(r"```\n(name,.*?)```", text, re.S)[0].strip().splitlines()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "grader").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m grader "$@"\n', encoding="utf-8")
    (bin_dir / "grader").chmod(0o755)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MCA_", "MOCK", "GRADER_"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", TMPDIR=str(tmp_path))
    done = subprocess.run(["bash", "-c", "set -eu\n" + recipe], cwd=KIT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-len(promised):] == promised, done.stdout
    assert "day-01: grading 3 submissions" in lines[0]
    gradebook = next(Path(p) for p in tmp_path.glob("tmp.*.gradebook"))
    assert (gradebook / "report.html").is_file()
