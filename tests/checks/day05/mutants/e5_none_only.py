"""E5: treats only a missing stdin as "nobody there"; /dev/null or a pipe still gets the
prompt, whose end of input reads as the user saying no."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    if stdin is None:
        return None
    return ask_on_terminal
