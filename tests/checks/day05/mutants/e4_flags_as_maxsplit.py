"""E4: passes re.MULTILINE to re.split as its third argument, which is maxsplit (8): after
eight separators the rest stays one part, so a denied command written ninth hides behind
the allowed program at the start of that part."""
TARGET = "mca/tools/approval.py"
FAILS = ("compound-each-part",)


def command_parts(command):
    pieces = re.split(SEPARATORS.pattern, command, re.MULTILINE)
    return [part.strip() for part in pieces if part.strip()] or [command.strip()]
