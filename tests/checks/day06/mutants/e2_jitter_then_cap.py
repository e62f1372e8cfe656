"""E2: jitter first, cap last: once the cap is reached every pause is exactly 8 s again, in step with every other client."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt * random.uniform(0.75, 1.0), BACKOFF_CAP)
