"""E2: a short preview, whatever the limit: 50 characters of the start, an honest note,
50 of the end ("the model can ask for more").

Declared, at most the limit, both ends there - and of 8,000 characters of room about a
hundred are used: the model sees almost nothing, and a longer error line loses its start.
"""
TARGET = "mca/tools/truncate.py"
FAILS = ("tail-kept", "truncation-declared")


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    return text[:50] + f"\n[... {len(text) - 100} of {len(text)} characters cut ...]\n" + text[-50:], True
