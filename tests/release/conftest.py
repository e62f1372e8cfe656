"""The student edition and the Gradescope bundle: a tiny synthetic kit to release
(fast, nothing day-specific) and the real kit (end to end, as an instructor would)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.grader.conftest import DAY01_CHECKS, SOURCE, generate_all, manifest, write_tree

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy_kit(tmp_path, monkeypatch) -> Path:
    """The synthetic one-day course of tests/grader as an instructor's kit: one source,
    generated labs and solutions, its checks folder beside the grader package."""
    root = tmp_path / "kit"
    write_tree(root / "source", SOURCE)
    write_tree(root, {"checks/day01/checks.py": DAY01_CHECKS, "course.toml": manifest(day02=False)})
    generate_all(root)
    monkeypatch.setenv("GRADER_COURSE", str(root / "course.toml"))
    monkeypatch.setenv("GRADER_LANG", "en")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return root


def child_env(**extra) -> dict:
    """The environment a student's shell would have: none of the kit's own settings."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("MCA_", "MOCK", "GRADER_", "PYTEST", "VIRTUAL_ENV"))}
    env.update(GRADER_LANG="en", **extra)
    return env


@pytest.fixture
def python3_on_path(tmp_path) -> dict:
    """An environment whose `python3` is the interpreter running the tests (3.11+)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python3").symlink_to(sys.executable)
    return child_env(PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
