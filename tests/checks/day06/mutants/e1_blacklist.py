"""E1: lists what is never retried (400, 401, 403, 404) and retries the rest, 422 and 413 included."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried",)


def should_retry(exc):
    return exc.status not in (400, 401, 403, 404)
