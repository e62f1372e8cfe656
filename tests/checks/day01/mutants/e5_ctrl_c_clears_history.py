"""E5: Ctrl-C at the prompt clears the conversation (`chat.history.clear()`), like the
"clear" of a chat window, and gives a fresh prompt.

The REPL stays up and the next line is answered, but the name given a moment ago is
gone: Ctrl-C was meant to drop the line being typed, not the history.
"""
TARGET = "mca/repl.py"
FAILS = ("repl-edges",)


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ").strip()
        except EOFError:
            print()
            break
        except KeyboardInterrupt:
            chat.history.clear()
            print()
            continue
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
