"""What every day's checks folder holds, whatever the day: one test per manifest check,
in manifest order. (Each day's own helpers are tested in tests/checks/dayNN/.)"""

from __future__ import annotations

import pytest

from tests.checks import corpus

DAYS = [day for day in corpus.COURSE.days if (day.checks_dir / "checks.py").is_file()]


@pytest.mark.parametrize("day", DAYS, ids=lambda day: day.id)
def test_every_check_is_there_in_manifest_order(day):
    module = corpus.checks_module(day)
    tests = [name for name in vars(module) if name.startswith("test_")]
    assert tests == ["test_" + c.id.replace("-", "_") for c in day.all_checks]
