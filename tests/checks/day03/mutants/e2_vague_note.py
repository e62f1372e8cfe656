"""E2: head and tail with a note that says only that something was cut, not how much."""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    note = "\n[... output truncated ...]\n"
    room = limit - len(note)
    return text[:room - room // 2] + note + text[len(text) - room // 2:], True
