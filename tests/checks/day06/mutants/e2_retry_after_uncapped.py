"""E2: trusts Retry-After whatever it says: a server asking for two hours parks the agent for two hours."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured",)


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return retry_after
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
