"""E3: answers the call that was running (the first one without a result) and forgets the calls that never started."""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl", "no-dangling-call")


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        last = next(m for m in reversed(history) if m.get("role") == "assistant")
        answered = {m.get("tool_call_id") for m in history if m.get("role") == "tool"}
        for call in last.get("tool_calls") or []:
            if call["id"] not in answered:
                add_message(history, {"role": "tool", "tool_call_id": call["id"], "content": "error: cancelled"}, emit)
                break
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
