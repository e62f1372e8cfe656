"""E5: Ctrl-C at the prompt gives a fresh prompt - and a fresh conversation
(`chat = Chat(chat.gateway)`: "Ctrl-C means start again").

The REPL goes on and answers, so a check that only asks something new after Ctrl-C
sees nothing wrong; but a person who pressed Ctrl-C to drop a half-typed line has lost
everything said before it.
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
            print()
            chat = Chat(chat.gateway)
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
