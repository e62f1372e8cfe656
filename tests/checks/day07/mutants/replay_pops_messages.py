"""E2: replay moves each message out of its event (`event.fields.pop("message")`,
"so the history and the log do not hold the same dict twice").

The returned history and counts are right - the first time. But replay has emptied
the events it was given: everything that looks at them next (fork points, "does the
log end at a clean boundary", a second replay) finds message events with no
message. Resume crashes right after replay. Replay must leave the events as they are.

NOTE for the grader team: `log inspect` runs fork_points on the same events after
replay, so a check that reads fork points through `log inspect` would blame E4 for
this E2 mistake.
"""
TARGET = "mca/session/replay.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "model-frozen", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields.pop("message"))
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
