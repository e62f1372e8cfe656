"""E4: uses shlex with punctuation_chars to find the operators - a real tokenizer, but
it knows nothing of $( ) or backticks, so what runs inside them is never judged."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    parts, current = [], []
    for token in lexer:
        if token and set(token) <= set(";&|"):
            parts.append(" ".join(current))
            current = []
        else:
            current.append(token)
    parts.append(" ".join(current))
    return [part.strip() for part in parts if part.strip()] or [command.strip()]
