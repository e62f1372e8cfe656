"""Suite-wide: the corpus gradings, shared by tests/checks and tests/kit.

Grading the corpus (tests/checks/conftest.py) is most of the suite's time, and a grading
run spends much of it waiting on its children. So the gradings start as soon as the tests
are collected, in their own pool, and go on while the other tests run; a test that needs
one waits for it. The suite runs in one process: parallel workers would each grade the
whole corpus again.
"""

from __future__ import annotations

import pytest

from tests.checks.conftest import Gradings, labs_wanted

_STARTED: dict[str, Gradings] = {}


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    wanted = labs_wanted(session.items)
    if wanted:
        _STARTED["runs"] = Gradings(wanted, session.config._tmp_path_factory.mktemp("graded"))


def pytest_sessionfinish(session):
    runs = _STARTED.pop("runs", None)
    if runs is not None:
        runs.close()


@pytest.fixture(scope="session")
def gradings(tmp_path_factory) -> Gradings:
    """Every lab the selected tests name, each graded once (started at collection)."""
    if "runs" not in _STARTED:
        _STARTED["runs"] = Gradings([], tmp_path_factory.mktemp("graded"))
    return _STARTED["runs"]
