"""E2: replay "prepares the history for the API": it converts each logged tool call
`{id, name, args}` to the OpenAI wire shape `{id, type: "function", function: {name,
arguments: "<json>"}}`.

Replay returns the messages exactly as logged; turning them into a wire format is
the gateway's job, and it does it again on top of this (the gateway finds no `name`
or `args` in the calls). The history no longer equals the logged one and the
resumed request is broken.
"""
TARGET = "mca/session/replay.py"
FAILS = ("model-frozen", "replay-counts", "resume-across-processes")


def replay(events):
    messages = []
    skipped = 0
    for event in events:
        if event.type != "message":
            skipped += 1
            continue
        message = dict(event.fields["message"])
        if message.get("tool_calls"):
            message["tool_calls"] = [
                {"id": call.get("id"), "type": "function",
                 "function": {"name": call.get("name"), "arguments": json.dumps(call.get("args", {}))}}
                for call in message["tool_calls"]
            ]
        messages.append(message)
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
