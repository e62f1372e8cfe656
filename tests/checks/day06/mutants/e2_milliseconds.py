"""E2: the pause in milliseconds, as JavaScript's setTimeout takes it: the loop's sleep takes seconds, so every wait is a thousand times too long."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured", "backoff-grows-capped")


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP) * 1000
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0) * 1000
