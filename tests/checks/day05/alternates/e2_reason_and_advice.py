"""E2: the denial's result keeps the reason and adds advice for the model."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def refusal(call, approver):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    decision = approver.decide(call.name, call.args)
    if decision.allowed:
        return None
    advice = " Do not retry the same call; choose another way or ask the user."
    return ToolResult(False, decision.reason + advice, blocked_by="approval")
