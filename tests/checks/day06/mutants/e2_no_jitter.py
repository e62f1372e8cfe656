"""E2: exponential and capped, Retry-After first, but no jitter: every client that failed together retries together."""
TARGET = "mca/agent/loop.py"
FAILS = ("backoff-grows-capped",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP)
