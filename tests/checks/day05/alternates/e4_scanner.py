"""E4: a hand-written scanner, character by character: it cuts at &&, ||, ;, |, a lone
&, newlines, $( ( ) ` and <( >(, and leaves the & of 2>&1 and &> inside the part."""
TARGET = "mca/tools/approval.py"
FAILS = ()


def command_parts(command):
    parts, current, i = [], [], 0
    while i < len(command):
        two = command[i:i + 2]
        char = command[i]
        if two in ("&&", "||", "$(", "<(", ">("):
            parts.append("".join(current))
            current, i = [], i + 2
            continue
        if char == "&" and (command[i - 1:i] in (">", "<") or command[i + 1:i + 2] == ">"):
            current.append(char)
        elif char in ";|&\n)`":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()] or [command.strip()]
