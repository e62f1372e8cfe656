"""A correct E5 written differently: returns 0 straight from the EOFError handler, shows
"^C" for Ctrl-C, and tests for an empty line with len() after stripping.
"""
TARGET = "mca/repl.py"
FAILS = ()


def run_repl(chat, read_line=None):
    read_line = read_line or input
    print("mca: type a request, /exit to leave", flush=True)
    while True:
        try:
            line = read_line("you > ")
        except KeyboardInterrupt:
            print("^C")
            continue
        except EOFError:
            print()
            chat.close()
            return 0
        line = line.strip()
        if len(line) == 0:
            continue
        if line in ("/exit", "/quit"):
            break
        try:
            print(chat.ask(line), flush=True)
        except GatewayError as exc:
            print(f"mca: {exc}", flush=True)
    chat.close()
    return 0
