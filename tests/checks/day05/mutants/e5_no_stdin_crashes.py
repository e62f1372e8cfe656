"""E5: asks stdin.isatty() without a guard: right for a pipe or /dev/null, but a program
started with its stdin closed has sys.stdin None and crashes."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    if not stdin.isatty():
        return None
    return ask_on_terminal
