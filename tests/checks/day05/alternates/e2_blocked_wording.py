"""E2 with its own words: the denial is a result that reads "blocked by the approval gate:
..." (the call, why, the rule), not one that starts with "denied"."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def refusal(call, approver):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        why = decision.reason.partition(": ")[2] or decision.reason
        return ToolResult(False, f"blocked by the approval gate: {why}; try another way", blocked_by="approval")
    return None
