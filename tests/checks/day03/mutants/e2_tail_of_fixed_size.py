"""E2: keeps the start up to the limit minus a fixed 20-character tail ("just the last
bit"), with an honest note: the error line is longer than 20 characters."""
TARGET = "mca/tools/truncate.py"
FAILS = ("tail-kept",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    head = max(0, limit - len(marker.format(cut=len(text))) - 20)
    cut = len(text) - head - 20
    return text[:head] + marker.format(cut=cut) + text[-20:], True
