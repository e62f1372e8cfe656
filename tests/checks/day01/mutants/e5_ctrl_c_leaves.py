"""E5: treats Ctrl-C at the prompt like Ctrl-D: `except (EOFError, KeyboardInterrupt): break`.

Tidy and symmetric, and it exits cleanly - but a person who presses Ctrl-C to drop
a half-typed line loses the whole conversation.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            break
        if not line:
            continue
        if line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
