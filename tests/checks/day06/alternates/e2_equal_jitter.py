"""E2 with "equal jitter": half the exponential pause is fixed, the other half random; a Retry-After wins, bounded."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def backoff_delay(attempt, retry_after=None):
    if retry_after is not None:
        return max(0.0, min(float(retry_after), RETRY_AFTER_CAP))
    pause = min(BACKOFF_CAP, BACKOFF_SECONDS * (2 ** attempt))
    half = pause / 2
    return half + random.random() * half
