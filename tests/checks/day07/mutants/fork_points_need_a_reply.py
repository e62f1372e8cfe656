"""E4: a fork point is a user message or an assistant message that answered something:
"an assistant message without tool calls is its final answer", told apart from a call
request by having text. An empty reply without tool calls (a model that said nothing) is
a clean boundary all the same, and is left out.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events):
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        if message.get("role") == "user":
            points.append(event.seq)
        elif message.get("role") == "assistant" and message.get("content") and not message.get("tool_calls"):
            points.append(event.seq)
    return points
