"""E2: with Retry-After the pause is the longer of the server's ask and the usual backoff (never sooner than asked)."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def backoff_delay(attempt, retry_after=None):
    usual = min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
    if retry_after is None:
        return usual
    return min(max(retry_after, usual), RETRY_AFTER_CAP)
