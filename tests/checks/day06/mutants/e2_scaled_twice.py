"""E2: "MCA_TIME_SCALE scales every wait", so backoff_delay scales too - and the loop scales its answer again."""
TARGET = "mca/agent/loop.py"
FAILS = ("retry-after-honoured", "backoff-grows-capped")


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP) * time_scale()
    return min(BACKOFF_SECONDS * 2 ** attempt, BACKOFF_CAP) * random.uniform(0.75, 1.0) * time_scale()
