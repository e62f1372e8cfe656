"""E4: the repeat is not run, but its result is a success with a note ("the model did
nothing wrong, so it is not an error"): ok true, no blocked_by.

The model and whoever reads the log see a call that worked and returned a note, not a call
that was stopped.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


def refusal(call, approver, guard):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    if guard.blocks(call):
        return ToolResult(True, f"skipped: {call.name} was already called {guard.max_repeats} times "
                                "with these arguments in this turn")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        return ToolResult(False, decision.reason, blocked_by="approval")
    return None
