"""find_refs skips e-mails and code right, but takes only a trailing comma off a
reference ("people write `@a.py, @b.py`"): `(see @x.py)`, `@y.txt.` and `[@z.json]!`
keep their punctuation and name files that do not exist."""
TARGET = "mca/refs/parse.py"
FAILS = ("not-a-reference",)


def find_refs(text):
    plain = CODE.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    for match in re.finditer(r"(?:^|(?<=[\s(\[{]))@(\S+)", plain):
        target = match.group(1).rstrip(",")
        if target and not target.startswith("@") and target not in found:
            found.append(target)
    return found
