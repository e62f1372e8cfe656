"""Suite-wide: keep the tests that share one expensive session fixture on one worker.

Under pytest-xdist (`-n`), each worker builds its own session fixtures. The corpus
gradings, the hostile runs and the reliability figures are each built once, for every
test that uses them, so those tests go to one worker per fixture (`--dist loadgroup`);
the rest spread over the workers. Without xdist the marks change nothing.
"""

from __future__ import annotations

import pytest

from tests.checks.conftest import gradings_for

SHARED = {"gradings": "corpus-gradings", "runs": "hostile-runs", "figures": "reliability-figures"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for fixture, group in SHARED.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(group))
                break


@pytest.fixture(scope="session")
def gradings(request, tmp_path_factory):
    """Every lab the selected tests name, graded once (see tests/checks/conftest.py)."""
    yield from gradings_for(request, tmp_path_factory)
