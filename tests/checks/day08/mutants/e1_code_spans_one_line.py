"""find_refs blanks out code spans with a one-line pattern (`` `[^`\\n]*` ``): inline code
is skipped, but a fenced block spans lines, so a reference inside one is injected."""
TARGET = "mca/refs/parse.py"
FAILS = ("not-a-reference",)


def find_refs(text):
    plain = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), text)
    found = []
    for match in re.finditer(r"@(\S+)", plain):
        start = match.start()
        if start > 0 and not (plain[start - 1].isspace() or plain[start - 1] in OPENERS):
            continue
        target = match.group(1).rstrip(TRAILING)
        if target and not target.startswith("@") and target not in found:
            found.append(target)
    return found
