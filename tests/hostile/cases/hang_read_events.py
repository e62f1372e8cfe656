"""`read_events` never returns: a loop that forgets to advance, burning a CPU for ever."""
TARGET = "mca/session/log.py"
STATUSES = {
    "resume-across-processes": "timeout",
    "torn-tail": "timeout",
    "bad-line-stops": "timeout",
    "fork-points": "timeout",
    "damaged-then-continue": "timeout",
    "dangling-tool-call": "timeout",
    "unknown-type-tolerated": "timeout",
    "missing-line": "timeout",
    "model-frozen": "timeout",
}
# replay-counts passes: its harness hands replay events the grader built, no reading.
# single-writer passes: the second process is refused by the session lock before it reads.
# fork-copies-prefix and parent-untouched pass: `fork` streams the prefix itself and never
# calls read_events on the way to a clean fork point.


def read_events(path):
    spins = 0
    while True:  # @MARKER@
        spins += 1
