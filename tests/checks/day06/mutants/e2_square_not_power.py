"""E2: `attempt ** 2` for `2 ** attempt`: the first pause is zero and the growth is quadratic."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * attempt ** 2, BACKOFF_CAP) * random.uniform(0.75, 1.0)
