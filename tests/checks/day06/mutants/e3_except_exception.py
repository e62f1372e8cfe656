"""E3: `except Exception`: KeyboardInterrupt is a BaseException, so Ctrl-C still goes straight up and ends the REPL."""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl", "no-dangling-call")


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except Exception:
        close_dangling_calls(history, emit)
        emit(ErrorOccurred("cancelled by the user", "loop"))
        return ""
