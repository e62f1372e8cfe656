"""E2: raises the tool layer's own ToolError instead of PermissionError, as if the
registry would turn it into a result - but refusal runs outside tools.run."""
TARGET = "mca/agent/loop.py"
FAILS = ("denied-becomes-result", "turn-goes-on")

from ..tools.base import ToolError


def refusal(call, approver):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        raise ToolError(decision.reason)
    return None
