"""E2: jitter for everything, Retry-After included: the retry comes up to a quarter sooner than the server asked."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured",)


def backoff_delay(attempt, retry_after=None):
    base = min(retry_after, RETRY_AFTER_CAP) if retry_after is not None else min(BACKOFF_SECONDS * 2 ** attempt,
                                                                                 BACKOFF_CAP)
    return base * random.uniform(0.75, 1.0)
