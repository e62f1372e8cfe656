"""E4: hides the & of every redirection (>&, <&, &>) behind a marker, replaces each separator
with a newline, puts the redirections back and splits the lines."""
TARGET = "mca/tools/approval.py"
FAILS = ()


def command_parts(command):
    text = command
    marks = {">&": "\0r1", "<&": "\0r2", "&>": "\0r3"}
    for real, mark in marks.items():
        text = text.replace(real, mark)
    for separator in ("&&", "||", "$(", "<(", ">(", ";", "|", "&", "`", ")"):
        text = text.replace(separator, "\n")
    for real, mark in marks.items():
        text = text.replace(mark, real)
    return [part.strip() for part in text.split("\n") if part.strip()] or [command.strip()]
