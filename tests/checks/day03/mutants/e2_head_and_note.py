"""E2: keeps the start and ends with an honest note of what was cut - but drops the end,
where a failing command prints its error."""
TARGET = "mca/tools/truncate.py"
FAILS = ("tail-kept", "truncation-declared")


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    note = f"\n[... {len(text)} characters in all; the rest, {{cut}} characters, was cut ...]"
    keep = max(0, limit - len(note.format(cut=len(text))))
    return text[:keep] + note.format(cut=len(text) - keep), True
