"""E2: replay keeps every message but blanks out tool results "to save tokens":
the counts are right, yet the resumed model cannot see the earlier test run."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type != "message":
            skipped += 1
            continue
        message = dict(event.fields["message"])
        if message.get("role") == "tool":
            message["content"] = "(tool output omitted)"
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
