"""E2: jitter of a tenth of a percent (x0.999-1): the pauses differ from draw to draw, yet every client comes back within the same millisecond."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.999, 1.0)
