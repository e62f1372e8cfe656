"""E2: half the limit from the start, half from the end, and the note between them:
the note itself pushes the result over the limit."""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    half = limit // 2
    cut = len(text) - 2 * half
    return text[:half] + f"\n[... {cut} of {len(text)} characters cut ...]\n" + text[-half:], True
