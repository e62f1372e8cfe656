"""find_refs gets every rule right but collects the references in a set and returns them
sorted, "so the output is stable": the files reach the model in name order, not in the
order the user typed them."""
TARGET = "mca/refs/parse.py"
FAILS = ("not-a-reference",)


def find_refs(text):
    plain = CODE.sub(lambda m: " " * len(m.group(0)), text)
    found = set()
    for match in re.finditer(r"@(?=(\S+))", plain):
        start = match.start()
        if start > 0 and not (plain[start - 1].isspace() or plain[start - 1] in OPENERS):
            continue
        target = match.group(1).rstrip(TRAILING)
        if not target or target.startswith("@"):
            continue
        found.add(target)
    return sorted(found)
