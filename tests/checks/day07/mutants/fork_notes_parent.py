"""E5: fork copies the prefix correctly, then also records the fork in the parent
("so both sides know"), which changes the parent's bytes."""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "missing-line", "parent-untouched")


def _copy_prefix(parent, child, size):
    with open(parent, "rb") as source, open(child, "xb") as target:
        target.write(source.read(size))
    with open(parent, "ab") as note:
        note.write(b'{"seq": 0, "ts": "1970-01-01T00:00:00Z", "type": "forked", "to": "%s"}\n' % child.stem.encode())
