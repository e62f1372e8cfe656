"""The CLI's `main` calls `sys.exit(0)` before doing anything: success status, no work."""
TARGET = "mca/cli.py"
OTHERS = "failed"
# append-is-incremental imports the log module, never main: it passes. parent-untouched
# fails: a fork that exits 0 having made nothing proves nothing about the parent.
# Checks that call the lab's functions through a harness never start main: they pass.
STATUSES = {"append-is-incremental": "passed", "replay-counts": "passed", "torn-tail": "passed",
            "bad-line-stops": "passed", "unknown-type-tolerated": "passed"}


def main(argv=None):
    sys.exit(0)  # @MARKER@
