"""E2: replay keeps every message, but shortens a long tool result to its first and last
2,000 characters ("a resumed session does not need megabytes of old test output, and
it keeps the next request small").

The history a resumed session sends is then not the one the log holds: the model reads
another conversation than the one that happened.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events):
    messages, skipped = [], 0
    for event in events:
        if event.type != "message":
            skipped += 1
            continue
        message = dict(event.fields["message"])
        content = message.get("content")
        if message.get("role") == "tool" and isinstance(content, str) and len(content) > 4_000:
            message["content"] = content[:2_000] + "\n[... shortened on resume ...]\n" + content[-2_000:]
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
