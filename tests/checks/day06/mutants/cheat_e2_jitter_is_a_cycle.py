"""Cheat, E2: a "random" jitter that is a fixed cycle of factors.

Every pause of one process differs from the one before (0.81, 0.93, 0.77, 0.88, 0.97,
then again), so a run of retries looks jittered; but every client that failed together
takes the same factors in the same order and retries in step, which is what jitter is
for. Held when a check draws its pauses across several processes.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)

import itertools


def backoff_delay(attempt, retry_after=None, _factors=itertools.cycle((0.81, 0.93, 0.77, 0.88, 0.97))):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * next(_factors)
