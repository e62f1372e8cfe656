"""E2: replay treats an `error` event as a sign that the session is broken and
raises on it ("the session failed, do not resume it"); every other event is handled
right.

An `error` event (a failed request, a stopped turn) is history for people; the
session goes on after it. Replay counts it as skipped like every non-message event;
here a log with an error event cannot be replayed at all.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        elif event.type == "error":
            raise ValueError(f"event {event.seq} records an error ({event.fields.get('where')}): "
                             f"{event.fields.get('message')}")
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
