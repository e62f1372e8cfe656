"""E4: fork points also offer `fork` events ("the session was forked there, so it is a
clean place").

A fork event is not a message: only user messages and assistant messages without tool
calls are clean boundaries.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events: Iterable[Event]) -> list[int]:
    points = []
    for event in events:
        if event.type == "fork":
            points.append(event.seq)
            continue
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and not message.get("tool_calls")):
            points.append(event.seq)
    return points
