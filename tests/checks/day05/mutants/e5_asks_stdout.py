"""E5: asks whether stdout is a terminal - the screen the prompt goes to - instead of
stdin, where the answer has to come from: with stdin /dev/null on a terminal, the
prompt reads the end of input as a no from the user."""
TARGET = "mca/tools/approval.py"
FAILS = ("no-tty-denies",)


def terminal_asker(stdin=None):
    if not sys.stdout.isatty():
        return None
    return ask_on_terminal
