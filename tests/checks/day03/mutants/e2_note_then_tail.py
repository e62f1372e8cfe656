"""E2: keeps only the end, like `tail`, after a note of how much was cut: the error is
there, but the start (the command, the first lines) is gone."""
TARGET = "mca/tools/truncate.py"
FAILS = ("tail-kept", "truncation-declared")


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    note = f"[... first {{cut}} of {len(text)} characters cut ...]\n"
    keep = max(0, limit - len(note.format(cut=len(text))))
    return note.format(cut=len(text) - keep) + text[len(text) - keep:], True
