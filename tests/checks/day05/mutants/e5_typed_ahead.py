"""E5: counts stdin as a person when bytes are already waiting on it ("scripted answers"),
so 'printf "y\\n" | mca ...' approves calls with no terminal anywhere: whatever text is in
the pipe answers."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)

import fcntl
import struct
import termios


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    try:
        terminal = stdin is not None and stdin.isatty()
        if stdin is not None and not terminal:
            waiting = fcntl.ioctl(stdin.fileno(), termios.FIONREAD, b"\0\0\0\0")
            terminal = struct.unpack("i", waiting)[0] > 0
    except (OSError, ValueError):
        terminal = False
    return ask_on_terminal if terminal else None
