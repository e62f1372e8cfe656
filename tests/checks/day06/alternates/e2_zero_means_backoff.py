"""E2: `if retry_after:` - a Retry-After of 0 (or a date already past) gets the usual backoff: later than asked, never sooner."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def backoff_delay(attempt, retry_after=None):
    if retry_after:
        return min(retry_after, RETRY_AFTER_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
