"""E2: replay counts as skipped only the types it knows (usage, tool_end, error,
fork); an event of any other type is neither replayed nor counted.

Unknown types are not damage and are not ignored either: every event that is not a
message is counted as skipped, so replayed + skipped is the number of events read.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts", "unknown-type-tolerated")

from .log import KNOWN_TYPES


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        elif event.type in KNOWN_TYPES:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
