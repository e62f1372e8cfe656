"""E3: repairs the history, then lets the KeyboardInterrupt go on "so the caller knows": the REPL ends anyway."""
TARGET = "mca/agent/loop.py"
FAILS = ("cancel-keeps-repl", "no-dangling-call")


def run_turn(history, user_text, *, gateway, tools, approver, emit, max_rounds=MAX_ROUNDS, retries=RETRIES,
             sleep=time.sleep):
    add_message(history, {"role": "user", "content": user_text}, emit)
    try:
        return rounds(history, gateway, tools, approver, emit, max_rounds, retries, sleep)
    except KeyboardInterrupt:
        close_dangling_calls(history, emit)
        raise
