"""Waiting for something a running child does, with a limit."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float, interval: float = 0.01):
    """Poll `predicate` until it is true or `timeout` seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
