"""`main` SIGKILLs its parent (the grader process itself), then does its work.

Not in the parametrized cases (its name starts with `_`): the grader cannot survive
this, a child running as the same user may signal it. test_ci_tamper.py pins what
still holds: the run fails closed (no report, a non-zero status).
"""
TARGET = "mca/cli.py"

import signal


import os


def main(argv=None):
    os.kill(os.getppid(), signal.SIGKILL)  # @MARKER@
    return 0
