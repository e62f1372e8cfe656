"""E4: every user and assistant message is a fork point, including an assistant
message whose tool calls have no results yet."""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events):
    return [event.seq for event in events
            if event.message is not None and event.message.get("role") in ("user", "assistant")]
