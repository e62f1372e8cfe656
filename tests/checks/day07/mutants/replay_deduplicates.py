"""E2: replay skips a message equal to one it already has ("a resumed session may
have logged the same message twice"), and counts only the kept ones as replayed.

The log is the history: a user who typed "run the tests" twice, or a tool that gave
the same output twice, said it twice, and the model must see it twice. Replay never
de-duplicates.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type != "message":
            skipped += 1
            continue
        message = event.fields["message"]
        if message in messages:
            continue
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
