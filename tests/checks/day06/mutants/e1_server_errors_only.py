"""E1: retries lost connections and 5xx only: "4xx means the request was wrong", so 408, 409 and 429 give up at once."""
TARGET = "mca/agent/loop.py"
FAILS = ("not-retried", "transient-retried", "retry-after-honoured")


def should_retry(exc):
    if exc.status is None:
        return exc.transient
    return exc.status >= 500
