"""E4: splits only at &&, the one separator everybody thinks of: 'a; b', 'a | b' and
'a $(b)' are still judged as one command by their first word."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    return [part.strip() for part in command.split("&&") if part.strip()] or [command.strip()]
