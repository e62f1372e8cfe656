"""E5: "a terminal is a character device": true, but /dev/null is one too, so an agent
run with < /dev/null prompts and reads the end of input as a no from the user."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)

import os
import stat


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    try:
        mode = os.fstat(stdin.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return None
    return ask_on_terminal if stat.S_ISCHR(mode) else None
