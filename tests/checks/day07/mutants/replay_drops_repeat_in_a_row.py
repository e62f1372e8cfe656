"""E2: replay drops a message equal to the one just before it ("a write that was
retried"), and counts it as skipped.

Only messages in a row are compared, so a question asked again later survives; but a
prompt the user sent again after the model failed at once (user, error, the same user
message) loses its second copy, and the history no longer says what was asked twice.
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
        if messages and messages[-1] == message:
            skipped += 1
            continue
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
