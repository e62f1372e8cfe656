"""E1: one expression for everything; with no status and no transient flag it compares None with 500 and raises TypeError."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried",)


def should_retry(exc):
    return exc.transient or exc.status in RETRYABLE_STATUS or exc.status >= 500
