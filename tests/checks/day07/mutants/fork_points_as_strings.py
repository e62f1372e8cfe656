"""E4: fork_points returns the seqs as strings (`str(event.seq)`, "they are shown in
the /fork menu anyway").

The points are seq numbers: ints, in log order. `8 in ["2", "8"]` is False, so
every comparison with a real seq fails - `log inspect --json` shows strings, and
code that checks "is N a fork point" or "does the log end at one" gets it wrong.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-copies-prefix", "fork-points", "missing-line", "parent-untouched")


def fork_points(events):
    points = []
    for event in events:
        message = event.message
        if message is None:
            continue
        role = message.get("role")
        if role == "user" or (role == "assistant" and not message.get("tool_calls")):
            points.append(str(event.seq))
    return points
