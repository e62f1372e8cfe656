"""E2: replay builds the list newest first (`messages.insert(0, ...)`), the way
`/log` and `--list` show the latest on top.

The counts are right, but the model receives its history backwards: the final
answer first, a tool result before the call it answers. The resumed request is
invalid (the mock refuses it the way a real API does).
"""
TARGET = "mca/session/replay.py"
FAILS = ("damaged-then-continue", "missing-line", "model-frozen", "replay-counts", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.insert(0, event.fields["message"])
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
