"""E2: replay rebuilds each message from the fields it thinks matter - role,
content, and tool_calls when there are some - instead of taking the logged message
as it is.

It drops `tool_call_id`, so a tool message no longer says which call it answers, and
any other field a message carries is lost. The messages must equal the logged ones;
the resumed request (tool results without their call id) is refused.
"""
TARGET = "mca/session/replay.py"
FAILS = ("missing-line", "model-frozen", "replay-counts", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type != "message":
            skipped += 1
            continue
        logged = event.fields["message"]
        message = {"role": logged["role"], "content": logged.get("content", "")}
        if logged.get("tool_calls"):
            message["tool_calls"] = logged["tool_calls"]
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
