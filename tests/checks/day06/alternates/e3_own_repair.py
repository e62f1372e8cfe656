"""E3 without close_dangling_calls: the handler finds the unanswered calls of the last reply itself and answers
them with an "interrupted" result, then says the turn was interrupted."""
TARGET = "mca/agent/loop.py"
FAILS = ()


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        pass
    replies = [i for i, m in enumerate(history) if m.get("role") == "assistant"]
    if replies:
        last = replies[-1]
        answered = [m.get("tool_call_id") for m in history[last + 1:] if m.get("role") == "tool"]
        for call in history[last].get("tool_calls") or []:
            if call["id"] not in answered:
                add_message(history, {"role": "tool", "tool_call_id": call["id"],
                                      "content": "error: interrupted (Ctrl-C) before this call finished"}, emit)
    emit(ErrorOccurred("turn interrupted by Ctrl-C", "loop"))
    return ""
