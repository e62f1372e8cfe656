"""E4: "never cut after an assistant message with tool calls" is read as the only
rule: every other message is a fork point - the system message and every tool
result too.

A tool result is not a clean boundary: after it the model has not yet answered, and
with several calls in one round a cut after the first result leaves the others
unanswered. Only user messages and assistant messages without tool calls are.
"""
TARGET = "mca/session/fork.py"
FAILS = ("fork-points",)


def fork_points(events):
    return [event.seq for event in events
            if event.message is not None
            and not (event.message.get("role") == "assistant" and event.message.get("tool_calls"))]
