"""E4: fork_points reads `event.fields["message"]` of every event, as if every event
were a message: the first usage event raises KeyError.

Only message events have a message; every other event (usage, tool_end, error, fork,
unknown types) is simply not a fork point.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-points", "missing-line")


def fork_points(events):
    points = []
    for event in events:
        message = event.fields["message"]
        if message["role"] == "user" or (message["role"] == "assistant" and not message.get("tool_calls")):
            points.append(event.seq)
    return points
