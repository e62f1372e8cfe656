"""E2: the jitter is a default argument, drawn once when the module loads: every pause of the run has the same factor."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None, jitter=random.uniform(0.75, 1.0)):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * jitter
