"""E4: fork points are "the ends of turns": assistant messages without tool calls,
plus the user message only when it is the last message of the log (a turn that has
not been answered yet).

User messages are always fork points: cutting right after the user spoke is clean
(the next request just asks the model again). On the two-round log this gives 8, 19
instead of 2, 8, 9, 19, and a session killed in its first tool round has no fork
point left to recover from.
"""
TARGET = "mca/session/fork.py"
FAILS = ("dangling-tool-call", "fork-points")  # damaged-then-continue tears a round whose request ends what it can read
MAYBE = ("missing-line",)  # fails them on some generated inputs only


def fork_points(events):
    messages = [event for event in events if event.message is not None]
    points = []
    for index, event in enumerate(messages):
        role = event.message.get("role")
        if role == "assistant" and not event.message.get("tool_calls"):
            points.append(event.seq)
        elif role == "user" and index == len(messages) - 1:
            points.append(event.seq)
    return points
