"""E2: reports the denial on the screen and lets the call run anyway ("the user can
see it"): a deny stops nothing."""
TARGET = "mca/agent/loop.py"
FAILS = ("denied-becomes-result", "turn-goes-on", "yes-never-overrides-deny")

import sys


def refusal(call, approver):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        print(f"warning: {decision.reason}", file=sys.stderr)
    return None
