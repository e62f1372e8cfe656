"""E5: leaves at the end of input, but with `return 1` ("input ended unexpectedly").

The REPL ends and prints no traceback, yet a script that pipes lines into it sees a
failure every time: Ctrl-D is a normal way to leave.
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
            chat.close()
            return 1
        except KeyboardInterrupt:
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
