"""E1 written with ranges: no status means look at the transient flag; 408, 409, 429 and 500-599 are retried."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def should_retry(exc):
    status = exc.status
    if status is None:
        return bool(exc.transient)
    if 500 <= status <= 599:
        return True
    return status in (408, 409, 429)
