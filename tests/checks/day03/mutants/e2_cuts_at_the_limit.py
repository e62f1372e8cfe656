"""E2: `if len(text) < limit` - a text exactly as long as the limit is cut (and flagged)
although it fits."""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) < limit:
        return text, False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    cut = len(text) - head - tail
    return text[:head] + marker.format(cut=cut) + (text[-tail:] if tail else ""), True
