"""E2: declares "len(text) - limit characters cut", forgetting that the note takes room
too: the declared number is short by the note's length."""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    marker = f"\n[... {len(text) - limit} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker))
    head, tail = room - room // 2, room // 2
    return text[:head] + marker + (text[-tail:] if tail else ""), True
