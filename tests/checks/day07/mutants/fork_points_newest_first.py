"""E4: fork_points lists the points newest first ("the /fork menu should show the
latest on top"): 19, 9, 8, 2.

The points are in log order. Code that takes "the last fork point" as `points[-1]`
now gets the first one: a recovery fork would throw away every turn after the
first user message.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points", "missing-line")


def fork_points(events):
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and not message.get("tool_calls")):
            points.insert(0, event.seq)
    return points
