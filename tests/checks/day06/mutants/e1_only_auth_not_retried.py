"""E1: never retries a 401 (the case the lesson names) but retries everything else: 400, 403, 404, 422..."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried",)


def should_retry(exc):
    return exc.status != 401  # a bad key will not get better; anything else might
