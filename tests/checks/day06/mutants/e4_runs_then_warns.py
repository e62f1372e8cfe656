"""E4: the guard counts right, but a repeated call is still run, with a warning added to its
result ("the model should not lose data because it asked twice; the note is enough to make
it stop").

The tool runs a third and a fourth time: the loop costs what it did before, and the model
reads the same answer again, now with a note it may ignore.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("loop-guard",)


def run_call(call, tools, history, emit, *, approver, guard):
    emit(ToolStarted(call.id, call.name, call.args))
    repeated = guard.blocks(call)
    result, ms = refusal(call, approver, LoopGuard(guard.max_repeats)), 0
    if result is None:
        started = time.monotonic()
        result = tools.run(call.name, call.args)
        ms = round((time.monotonic() - started) * 1000)
        if repeated:
            result = ToolResult(result.ok, result.content + f"\n(note: {call.name} was already called "
                                f"{guard.max_repeats} times with these arguments; try something else)")
    emit(ToolFinished(call.id, call.name, result.ok, ms, len(result.content),
                      result.truncated, result.blocked_by))
    add_message(history, {"role": "tool", "tool_call_id": call.id, "content": result.content}, emit)
