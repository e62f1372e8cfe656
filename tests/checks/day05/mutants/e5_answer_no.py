"""E5: without a terminal, answers "n" itself: nothing hangs, but the model is told the
user refused, which nobody did - the reason must say there was no one to ask."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    try:
        terminal = stdin is not None and stdin.isatty()
    except ValueError:
        terminal = False
    return ask_on_terminal if terminal else (lambda description: "n")
