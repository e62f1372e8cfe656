"""find_refs half-fixes the trap: a lookbehind keeps e-mails out and trailing punctuation
is stripped, but back-quotes are not looked at, so `@c.py` in a code span and a fenced
block are injected."""
TARGET = "mca/refs/parse.py"
FAILS = ("not-a-reference",)


def find_refs(text):
    found = []
    for target in re.findall(r"(?<![\w@])@([^\s@]\S*)", text):
        target = target.rstrip(TRAILING)
        if target and target not in found:
            found.append(target)
    return found
