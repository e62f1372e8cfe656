"""E2: replay counts a message with no text and no tool calls as skipped ("nothing to
say").

An empty tool result (reading an empty __init__.py) is a message like any other: drop
it and the call before it has no answer, so every request after resume is refused.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events: Iterable[Event]) -> Replayed:
    messages: list[dict[str, Any]] = []
    skipped = 0
    for event in events:
        message = event.fields.get("message") if event.type == "message" else None
        if message and (message.get("content") or message.get("tool_calls")):
            messages.append(message)
        else:
            skipped += 1
    return Replayed(messages, len(messages), skipped)
