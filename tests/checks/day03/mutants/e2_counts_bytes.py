"""E2: declares the sizes in UTF-8 bytes ("the size of the file"), while the limit and
the cut are in characters: with CJK text the numbers are not what was cut."""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    size = len(text.encode("utf-8"))
    marker = f"\n[... {{cut}} of {size} bytes cut ...]\n"
    room = max(0, limit - len(marker.format(cut=size)))
    head, tail = room - room // 2, room // 2
    dropped = text[head:len(text) - tail]
    return text[:head] + marker.format(cut=len(dropped.encode("utf-8"))) + text[len(text) - tail:], True
