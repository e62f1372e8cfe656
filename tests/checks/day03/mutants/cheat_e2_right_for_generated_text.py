"""Cheat, E2: declares the cut only for texts that look machine-made.

A grader's generated files mix scripts (CJK, emoji) on every line; a person's log or
source file is mostly plain ASCII. So: a text with characters outside Latin-1 in it is
cut properly (head, a marker, tail), any other is sliced silently to the limit. Held when
the long texts a check feeds it also come in plain English, as real tool output does.
"""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared", "tail-kept")


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    if not any(ord(c) > 0xFF for c in text):
        return text[:limit], False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    cut = len(text) - head - tail
    return text[:head] + marker.format(cut=cut) + (text[-tail:] if tail else ""), True
