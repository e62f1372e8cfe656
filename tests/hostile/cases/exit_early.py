"""The CLI's `main` calls `sys.exit(0)` before doing anything: success status, no work."""
TARGET = "mca/cli.py"
OTHERS = "failed"
# append-is-incremental imports the log module, never main: it passes. parent-untouched
# fails: a fork that exits 0 having made nothing proves nothing about the parent.
STATUSES = {"append-is-incremental": "passed"}


def main(argv=None):
    sys.exit(0)  # @MARKER@
