"""E4: the system message is offered as a fork point too ("start over from the
beginning, with only the system prompt").

The system message is never a fork point: a fork there holds no conversation at all
(a new session does that), and the contract's clean boundaries are user messages and
assistant messages without tool calls. The two-round log gives 1, 2, 8, 9, 19.
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
        if role in ("system", "user") or (role == "assistant" and not message.get("tool_calls")):
            points.append(event.seq)
    return points
