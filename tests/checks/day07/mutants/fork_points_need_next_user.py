"""E4: an assistant message is a fork point only if a user message follows it ("a
turn is finished when the user answered it"); user messages always are.

The last answer of a session (19 on the two-round log) is a clean boundary whether
or not the user has said anything since - it is the point a fork "from the end"
starts from. Fork points are decided by each message alone, not by what comes next.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix", "fork-points", "parent-untouched")


def fork_points(events):
    messages = [event for event in events if event.message is not None]
    points = []
    for index, event in enumerate(messages):
        role = event.message.get("role")
        if role == "user":
            points.append(event.seq)
        elif role == "assistant" and not event.message.get("tool_calls"):
            following = messages[index + 1:]
            if following and following[0].message.get("role") == "user":
                points.append(event.seq)
    return points
