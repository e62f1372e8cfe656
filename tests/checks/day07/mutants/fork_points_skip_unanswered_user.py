"""E4: a user message that is the last event it was given is not offered ("it has no
answer yet").

A user message is a clean boundary whether or not an answer follows: the recovery fork
and `clean_prefix_size` ask about such a prefix.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-points", "missing-line")
MAYBE = ("fork-copies-prefix", "parent-untouched")  # both fork at a random point, a user message most times


def fork_points(events: Iterable[Event]) -> list[int]:
    events = list(events)
    points = []
    for index, event in enumerate(events):
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" and index < len(events) - 1:
            points.append(event.seq)
        elif role == "assistant" and not message.get("tool_calls"):
            points.append(event.seq)
    return points
