"""E3: on Ctrl-C, takes the tool calls back out of the last assistant message ("a call that
was cancelled was never made"), so that no call is left without a result.

The calls that had finished keep their results: tool messages that now answer no call.
The next request is refused with a 400 by a real provider, and by the grader's fake
server.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl", "no-dangling-call")


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        last = next(m for m in reversed(history) if m.get("role") == "assistant")
        last.pop("tool_calls", None)
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
