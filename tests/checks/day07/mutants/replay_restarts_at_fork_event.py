"""E2: replay treats a `fork` event as "a new session starts here" and clears the
messages it has rebuilt so far.

In a fork the lines before the fork event ARE the new session's history: they are
the parent's prefix, copied so the child can go on from there. Clearing at the fork
event gives a fork (and every recovery fork) an empty history.
"""
TARGET = "mca/session/replay.py"
FAILS = ("damaged-then-continue", "replay-counts")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        else:
            skipped += 1
            if event.type == "fork":
                messages = []
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
