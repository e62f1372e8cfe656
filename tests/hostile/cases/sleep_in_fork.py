"""`fork` sleeps for an hour before doing anything (far past any time limit)."""
TARGET = "mca/session/fork.py"
# A fork also starts the recovery fork of a resumed damaged log (the two bonus checks).
STATUSES = {
    "fork-copies-prefix": "timeout",
    "parent-untouched": "timeout",
    "damaged-then-continue": "timeout",
    "dangling-tool-call": "timeout",
    "missing-line": "timeout",
}

import time


def fork(sessions_dir, parent_id, at_seq):
    time.sleep(3600)  # @MARKER@
