"""The CLI's `main` calls `sys.exit(0)` before doing anything: success status, no work."""
TARGET = "mca/cli.py"
OTHERS = "failed"
# append-is-incremental imports the log module, never main: it passes. parent-untouched
# passes on a `fork` that exits 0 having done nothing (reported to the checks' owner).
STATUSES = {"append-is-incremental": "passed", "parent-untouched": "passed"}


def main(argv=None):
    sys.exit(0)  # @MARKER@
