"""E2: replay treats events as dicts (`event["message"]`) and crashes with a
TypeError; the checks show the exception and the line that raised it.

`log inspect` turns the crash into a note and still reports what reading and fork
points say, so the checks of the other exercise points (7, 8, 9) are not dragged down."""
TARGET = "mca/session/replay.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "model-frozen", "replay-counts", "resume-across-processes", "unknown-type-tolerated")


def replay(events):
    messages = [event["message"] for event in events if event.type == "message"]
    return Replayed(messages, len(messages), 0)
