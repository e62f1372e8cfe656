"""E2: replay rebuilds every message, but its `replayed` count leaves out the system
message ("that one is not part of the conversation"): round 1 reports 4 replayed.

`replayed` is the number of message events that went into the list (5 for round 1);
replayed + skipped must add up to the events read.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts", "unknown-type-tolerated")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        else:
            skipped += 1
    conversation = [m for m in messages if m.get("role") != "system"]
    return Replayed(messages=messages, replayed=len(conversation), skipped=skipped)
