"""E5: asks the operating system about file descriptor 0's file, with every way of
having no usable stdin taken as "not a terminal"."""
TARGET = "mca/tools/approval.py"
FAILS = ()

import os


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    try:
        return ask_on_terminal if os.isatty(stdin.fileno()) else None
    except (AttributeError, OSError, ValueError):
        return None
