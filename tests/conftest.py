"""Suite-wide: the tiers, and the corpus gradings shared by tests/checks and tests/kit.

Two tiers (`--tier`): `quick`, the default, runs every test but the corpus entries outside
a fixed sample (tests/checks/corpus.py `quick_sample`: a quarter of each day's mutants and
alternates), the `slow` reliability loops and the serial-against-side-by-side gradings;
`full` runs everything; `rest` runs only what `quick` leaves out, so `pytest` followed by
`pytest --tier rest` (what .ci/run does) is the full suite, each test once.

Grading the corpus (tests/checks/conftest.py) is most of the suite's time, and a grading
run spends much of it waiting on its children. So the gradings start as soon as the tests
are collected, in their own pool, and go on while the other tests run; a test that needs
one waits for it. The modules that wait for gradings run last,
so the pool grades while the rest of the suite runs. The suite runs in one process:
parallel workers would each grade the whole corpus again.
"""

from __future__ import annotations

import pytest

from tests.checks import corpus
from tests.checks.conftest import Gradings, labs_wanted

_STARTED: dict[str, Gradings] = {}
BEYOND_QUICK_MARKS = ("slow", "full_tier")


def pytest_addoption(parser):
    parser.addoption("--tier", choices=("quick", "full", "rest"), default="quick",
                     help="quick (default): all but most of the corpus and the slow loops; full: everything; "
                          "rest: what quick leaves out")


def beyond_quick(item, sample: frozenset[str]) -> bool:
    """Does the quick tier leave this test to the full one?"""
    if any(item.get_closest_marker(mark) for mark in BEYOND_QUICK_MARKS):
        return True
    callspec = getattr(item, "callspec", None)
    lab = callspec.params.get("lab_name") if callspec else None
    return (isinstance(lab, str) and corpus.is_corpus_entry(lab) and lab not in sample
            and "gradings" in getattr(item, "fixturenames", ()))


def pytest_collection_modifyitems(config, items):
    tier = config.getoption("--tier")
    if tier != "full":
        keep_tier(config, items, tier)
    gradings_last(items)


def gradings_last(items) -> None:
    """The modules whose tests wait for corpus gradings run after all the others (each module
    kept whole and in order), so the other tests run while the pool grades."""
    waiting = {item.module for item in items if "gradings" in getattr(item, "fixturenames", ())
               and getattr(item, "module", None) is not None}
    items.sort(key=lambda item: getattr(item, "module", None) in waiting)  # stable: order kept within


def keep_tier(config, items, tier: str) -> None:
    sample = corpus.quick_sample()
    wanted = [beyond_quick(item, sample) == (tier == "rest") for item in items]
    keep = [item for item, chosen in zip(items, wanted) if chosen]
    dropped = [item for item, chosen in zip(items, wanted) if not chosen]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


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
