"""E2: "no pause is longer than the cap": Retry-After is capped at BACKOFF_CAP (8 s), so a server asking for 30 s is asked again after 8."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, BACKOFF_CAP)
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
