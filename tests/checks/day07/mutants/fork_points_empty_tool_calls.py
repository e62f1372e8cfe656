"""E4: "has tool calls" is tested with `"tool_calls" in message`, so an assistant
message carrying an empty list (`"tool_calls": []`, which other writers and some
APIs send) counts as asking for tools and is not offered.

An empty list asks for nothing: the message is a plain answer and a clean boundary.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events):
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and "tool_calls" not in message):
            points.append(event.seq)
    return points
