"""find_refs follows every rule but returns each occurrence ("the user named it twice,
so they meant it twice"): a file named twice is injected twice."""
TARGET = "mca/refs/parse.py"
FAILS = ("file-injected",)


def find_refs(text):
    plain = CODE.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    for match in re.finditer(r"@(?=(\S+))", plain):
        start = match.start()
        if start > 0 and not (plain[start - 1].isspace() or plain[start - 1] in OPENERS):
            continue
        target = match.group(1).rstrip(TRAILING)
        if target and not target.startswith("@"):
            found.append(target)
    return found
