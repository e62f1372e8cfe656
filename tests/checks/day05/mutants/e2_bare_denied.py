"""E2: the denial is a result, but a bare "denied": the model cannot tell which rule
refused it or why, and tends to retry the same call."""
TARGET = "mca/agent/loop.py"
FAILS = ("denied-becomes-result",)


def refusal(call, approver):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        return ToolResult(False, "denied", blocked_by="approval")
    return None
