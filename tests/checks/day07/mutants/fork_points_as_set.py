"""E4: fork_points collects the seqs in a set ("no duplicates, fast `in`").

The right members, but a set has no order and no index: the last fork point
(`points[-1]`, what a recovery fork starts from) raises TypeError, and a set is not
JSON (`log inspect --json` cannot print it). The result is a list of ints in log
order.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points", "missing-line")


def fork_points(events):
    points = set()
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and not message.get("tool_calls")):
            points.add(event.seq)
    return points
