"""The CLI's `main` first waits for a line on stdin (a leftover "press Enter to go on")."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)
# Children the grader runs to completion get stdin from /dev/null: readline() returns "" and
# they go on. Only the children it talks to (kept running with a stdin pipe) can block.
STATUSES = {"written-as-it-happens": "timeout", "dangling-tool-call": "timeout", "single-writer": "failed"}


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    sys.stdin.readline()  # @MARKER@
