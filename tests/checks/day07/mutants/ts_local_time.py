"""Event timestamps in local time with its offset (ISO-8601, but not UTC)."""
TARGET = "mca/session/log.py"
FAILS = ("fork-copies-prefix", "log-format")


def utc_timestamp():
    return datetime.now().astimezone().isoformat(timespec="milliseconds")
