"""A correct E5 written differently: Ctrl-C at the prompt prints a line saying what it did
("(line dropped; /exit or Ctrl-D leaves)") before the fresh prompt, and keeps the chat.
"""
TARGET = "mca/repl.py"
FAILS = ()


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            text = read_line("you > ")
        except KeyboardInterrupt:
            print("\n(line dropped; /exit or Ctrl-D leaves)", flush=True)
            continue
        except EOFError:
            print()
            break
        if text.isspace() or not text:
            continue
        line = text.strip()
        if line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
