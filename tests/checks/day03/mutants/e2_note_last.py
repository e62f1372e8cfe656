"""E2: keeps the start and the end and adds the note at the very end, like a footnote
("the text first, the remark after").

The numbers are right, but where the text was cut nothing says so: the start runs
straight on into the end.
"""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    note = f"\n(note: {{cut}} of {len(text)} characters were cut from the middle)"
    room = max(0, limit - len(note.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    return text[:head] + text[len(text) - tail:] + note.format(cut=len(text) - head - tail), True
