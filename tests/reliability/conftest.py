"""Reliability tests of the day-07 session package (the reference solution, in process
and in child processes). Every test records ``(area, cases tried, cases held)``; the
table is printed at the end of the run and written to ``reliability-figures.json``
(``$RELIABILITY_FIGURES``, else pytest's base temp dir)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Importing the session tests' conftest puts the solution on sys.path.
from tests.session.conftest import SOLUTION  # noqa: F401

from .figures import Figures, render

_FIGURES = Figures()
_WRITTEN: list[Path] = []


@pytest.fixture(scope="session")
def figures(tmp_path_factory):
    yield _FIGURES
    target = os.environ.get("RELIABILITY_FIGURES")
    path = Path(target) if target else tmp_path_factory.getbasetemp() / "reliability-figures.json"
    _FIGURES.dump(path)
    _WRITTEN.append(path)


def pytest_terminal_summary(terminalreporter):
    if not _FIGURES.rows:
        return
    terminalreporter.section("reliability figures")
    terminalreporter.write_line(render(_FIGURES.rows))
    for path in _WRITTEN:
        terminalreporter.write_line(f"(written to {path})")
