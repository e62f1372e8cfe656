"""E5: "an ask is a no" taken everywhere: terminal_asker never returns an asker, so even
a person at a terminal is never asked."""
TARGET = "mca/tools/approval.py"
FAILS = ("read-only-auto", "write-asks", "always-remembered")


def terminal_asker(stdin=None):
    return None
