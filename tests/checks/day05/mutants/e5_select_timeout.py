"""E5: waits up to a second for an answer on a stdin that is not a terminal, then
gives up: it does not hang, but a pipe with a line in it answers, and a closed stdin
still reads as "the user said no"."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)

import select


def terminal_asker(stdin=None):
    stdin = sys.stdin if stdin is None else stdin
    if stdin is None:
        return None
    if stdin.isatty():
        return ask_on_terminal

    def ask_briefly(description):
        ready, _, _ = select.select([stdin], [], [], 1.0)
        return (stdin.readline() or "n") if ready else "n"
    return ask_briefly
