"""Tests of the reference agent's layers (gateway, loop, tools, approval, CLI).

Only the solution goes on sys.path here: the lab has a package with the same name.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

SOLUTION = Path(__file__).resolve().parents[2] / "solutions" / "day-07-session-resume"
if str(SOLUTION) not in sys.path:
    sys.path.insert(0, str(SOLUTION))


class Recorder:
    """An emit function that keeps every event, for assertions on order and content."""

    def __init__(self) -> None:
        self.events: list = []

    def __call__(self, event) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [type(event).__name__ for event in self.events]

    def of(self, kind: type) -> list:
        return [event for event in self.events if isinstance(event, kind)]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A private copy of the sample workspace (calc.py and its tests)."""
    copy = tmp_path / "workspace"
    shutil.copytree(SOLUTION / "workspace", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy
