"""Cheat, E2: the jitter comes from a generator seeded with a constant ("reproducible").

Within one process the factors look random; every process draws the same ones in the
same order, so clients that failed together retry together.
Held when a check draws its pauses across several processes.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None, _draw=random.Random(20240611).uniform):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * _draw(0.75, 1.0)
