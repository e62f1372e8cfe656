"""The agent tests once more for each of days 1..6, each day in a child pytest of its own
(every_day.py): a day passes when its child exits 0 having passed at least one test.
This process covers day 7 itself (see conftest.py)."""

from __future__ import annotations

import os

import pytest

from .days import DAY
from .every_day import CHILD_DAYS

pytestmark = pytest.mark.skipif("MCA_TEST_DAY" in os.environ,
                                reason=f"MCA_TEST_DAY is set: this run covers day {DAY} only")


@pytest.mark.parametrize("day", CHILD_DAYS)
def test_the_agent_tests_pass_on_day(children, day):
    child = children[day]
    code, output = child.wait()
    assert code == 0, f"tests/agent against day {day} (MCA_TEST_DAY={day}) exited {code}:\n{output}"
    counts = child.counts()
    print(f"day {day}: {counts}")
    assert counts["passed"] > 0, f"day {day}: every test was skipped, nothing was proven:\n{output}"
