"""E1: a list copied from a blog post: 408, 409, 429, 500, 502, 503, 504, and nothing else (no other 5xx, no lost connection)."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried",)
MAYBE = ("transient-retried",)


def should_retry(exc):
    return exc.status in {408, 409, 429, 500, 502, 503, 504}
