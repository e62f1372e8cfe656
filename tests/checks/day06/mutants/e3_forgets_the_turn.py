"""E3: as days 3-5 did for a tool that raised: the cancelled turn is cut out of the history, so nothing dangles - and
nothing of what the user asked, or of what already ran, is left either."""
TARGET = "mca/agent/loop.py"
FAILS = ("no-dangling-call",)


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    start = len(history)
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        del history[start:]
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
