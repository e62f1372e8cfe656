"""E2: replay counts right but returns each event's fields instead of its message,
so the resumed model sees no roles and no earlier test run (and the token
estimate of those messages is zero)."""
TARGET = "mca/session/replay.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "model-frozen", "replay-counts", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(dict(event.fields))
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
