"""E2: replay sorts the events by their timestamp first "for tidiness" (in case a
log was written out of order), then rebuilds messages and counts the rest right.

Log order is the order: the ts is for people and comes from a wall clock that can
step backwards (NTP, a laptop waking up, a fork's event written later), and many
events share a millisecond. Sorting can move a tool result before its call.
Messages are rebuilt in log order, exactly as logged.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events):
    ordered = sorted(events, key=lambda event: event.ts)
    messages = []
    skipped = 0
    for event in ordered:
        if event.type == "message":
            messages.append(event.fields["message"])
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
