"""E2: a correct exponential backoff that never looks at retry_after: the server's own answer is ignored."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured",)


def backoff_delay(attempt, retry_after=None):
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0)
