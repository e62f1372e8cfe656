"""E2: replay treats events as dicts (`event["message"]`) and crashes with a
TypeError; the checks show the exception and the line that raised it.

The provided CLI turns only NotImplementedError into a note, so this crash also
takes `log inspect` down for the checks that read and fork logs (7, 8, 9)."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts", "resume-across-processes", "torn-tail", "bad-line-stops", "fork-points",
         "damaged-then-continue", "dangling-tool-call", "unknown-type-tolerated")


def replay(events):
    messages = [event["message"] for event in events if event.type == "message"]
    return Replayed(messages, len(messages), 0)
