"""E2: "full jitter": anywhere between 0 and the exponential pause, so a pause can be next to nothing."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return random.uniform(0, min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP))
