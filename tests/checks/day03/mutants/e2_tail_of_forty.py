"""E2: an honest note and a tail of at most 40 characters ("the last line or so"), the rest
of the room to the start: a short error line survives, a longer one is cut in the middle."""
TARGET = "mca/tools/truncate.py"
FAILS = ("tail-kept",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    tail = min(40, room // 2)
    head = room - tail
    cut = len(text) - head - tail
    return text[:head] + marker.format(cut=cut) + (text[-tail:] if tail else ""), True
