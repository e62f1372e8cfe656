"""E2: replay also rebuilds a tool message from each tool_end event (results twice in the history)."""
TARGET = "mca/session/replay.py"
FAILS = ("missing-line", "model-frozen", "replay-counts", "resume-across-processes", "unknown-type-tolerated")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type == "message":
            messages.append(event.fields["message"])
        elif event.type == "tool_end":
            messages.append({"role": "tool", "tool_call_id": event.fields["id"],
                             "content": f"{event.fields['name']} finished"})
        else:
            skipped += 1
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
