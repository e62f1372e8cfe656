"""E4: an assistant message with tool calls becomes a fork point once all its calls
have results later in the log ("the only danger is a call without a result").

A fork at N keeps the lines up to N only: the results come after N, so a fork at the
tool-calling message (4 on round 1) holds calls without results, and the next
request is invalid. A message with tool calls is never a fork point, answered or
not.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events):
    events = list(events)
    answered = {event.message.get("tool_call_id") for event in events
                if event.message is not None and event.message.get("role") == "tool"}
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        calls = message.get("tool_calls") or []
        if role == "user":
            points.append(event.seq)
        elif role == "assistant" and all(call.get("id") in answered for call in calls):
            points.append(event.seq)
    return points
