"""E2: keeps at most 2,000 characters of each end ("nobody reads more than a screenful"),
with an honest note between them, whatever the limit.

Up to a limit of about 4,000 it is the reference; at the registry's 8,000 half the room
the model was given stays empty, and it sees less of the file than it could.
"""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    head, tail = min(room - room // 2, 2000), min(room // 2, 2000)
    cut = len(text) - head - tail
    return text[:head] + marker.format(cut=cut) + (text[-tail:] if tail else ""), True
