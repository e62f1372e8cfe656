"""Suite-wide fixtures: the corpus gradings, shared by tests/checks and tests/kit.

The suite runs in one process: the gradings fixture already grades several labs at a
time in its own pool, and it grades each lab once for every test that names it, which
parallel workers would each redo.
"""

from __future__ import annotations

import pytest

from tests.checks.conftest import gradings_for


@pytest.fixture(scope="session")
def gradings(request, tmp_path_factory):
    """Every lab the selected tests name, graded once (see tests/checks/conftest.py)."""
    yield from gradings_for(request, tmp_path_factory)
