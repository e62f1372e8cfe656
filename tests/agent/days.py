"""Which day's solution these tests run against, and the markers that say when a layer exists.

``MCA_TEST_DAY`` (1..8, default 8) picks ``solutions/day-NN-*``; conftest.py puts it on
sys.path before any test module imports ``mca``. A test states the first day its layer
exists with ``@since(N, "layer")`` (and, for behaviour a later day replaces, the last
day it holds with ``@until(N, "why")``); a module whose imports need a later day calls
``module_since(N, "layer")`` before importing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST_DAY, LAST_DAY = 1, 8


def selected_day() -> int:
    text = os.environ.get("MCA_TEST_DAY", "") or str(LAST_DAY)
    if not text.isdigit() or not FIRST_DAY <= int(text) <= LAST_DAY:
        raise pytest.UsageError(f"MCA_TEST_DAY={text!r}: give a day from {FIRST_DAY} to {LAST_DAY}")
    return int(text)


def solution_of(day: int) -> Path:
    (found,) = sorted((ROOT / "solutions").glob(f"day-{day:02d}-*"))
    return found


DAY = selected_day()
SOLUTION = solution_of(DAY)


def arrives(day: int, layer: str) -> str:
    return f"{layer} arrives on day {day}"


def since(day: int, layer: str) -> pytest.MarkDecorator:
    """Run this test on day ``day`` and later; earlier days skip it, naming the layer."""
    return pytest.mark.skipif(DAY < day, reason=arrives(day, layer))


def until(day: int, why: str) -> pytest.MarkDecorator:
    """Run this test up to day ``day``: ``why`` says what a later day does instead."""
    return pytest.mark.skipif(DAY > day, reason=f"holds up to day {day}: {why}")


def module_since(day: int, layer: str) -> None:
    """Skip the whole calling module before day ``day`` (call it before importing the layer)."""
    if DAY < day:
        pytest.skip(arrives(day, layer), allow_module_level=True)
