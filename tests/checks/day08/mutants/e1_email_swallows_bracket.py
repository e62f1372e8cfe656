"""find_refs applies every rule to each match of a pattern taking an @ and what follows it
up to whitespace, but the matches do not overlap: in `ada@home(@calc.py)` the e-mail's
match (skipped, rightly) has already eaten the `@calc.py` that the opening bracket
starts, so that reference is lost."""
TARGET = "mca/refs/parse.py"
FAILS = ("not-a-reference",)


def find_refs(text):
    plain = CODE.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    for match in re.finditer(r"@(\S+)", plain):
        start = match.start()
        if start > 0 and not (plain[start - 1].isspace() or plain[start - 1] in OPENERS):
            continue
        target = match.group(1).rstrip(TRAILING)
        if not target or target.startswith("@"):
            continue
        if target not in found:
            found.append(target)
    return found
