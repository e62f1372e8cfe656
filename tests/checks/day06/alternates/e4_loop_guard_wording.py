"""E4 with its own words: the blocked result reads `error: loop guard: NAME(ARGS) was not
run again ...` (not ok, blocked_by loop_guard, the tool not run); the count is a Counter of
(name, sorted arguments) pairs."""
TARGET = "mca/agent/loop.py"
FAILS = ()

from collections import Counter


class LoopGuard:
    def blocks(self, call):
        counts = self.__dict__.setdefault("counts", Counter())
        key = (call.name, json.dumps(call.args, sort_keys=True, ensure_ascii=False))
        counts[key] += 1
        return counts[key] > self.max_repeats


def refusal(call, approver, guard):
    if call.problem:
        return ToolResult(False, f"error: {call.problem}")
    if guard.blocks(call):
        args = json.dumps(call.args, sort_keys=True, ensure_ascii=False)
        return ToolResult(False, f"error: loop guard: {call.name}({args}) was not run again; the same call "
                                 f"with the same arguments came {guard.max_repeats + 1} times in this turn",
                          blocked_by="loop_guard")
    decision = approver.decide(call.name, call.args)
    if not decision.allowed:
        return ToolResult(False, decision.reason, blocked_by="approval")
    return None
