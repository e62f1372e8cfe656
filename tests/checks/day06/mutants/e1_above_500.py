"""E1: `> 500` for `>= 500`: a plain 500 Internal Server Error is taken for the request's fault."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried",)
MAYBE = ("transient-retried", "backoff-grows-capped")


def should_retry(exc):
    if exc.status is None:
        return exc.transient
    return exc.status in RETRYABLE_STATUS or exc.status > 500
