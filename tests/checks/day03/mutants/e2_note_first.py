"""E2: puts the note first, where it is seen at once ("say it before anything else"), then
the start and the end of the text, one after the other.

Honest numbers, both ends kept - but the two pieces of text now touch, and the model
reads the start running straight on into the end, as if nothing were missing there.
"""
TARGET = "mca/tools/truncate.py"
FAILS = ("truncation-declared",)


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    note = f"[{{cut}} of {len(text)} characters cut from the middle]\n"
    room = max(0, limit - len(note.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    return note.format(cut=len(text) - head - tail) + text[:head] + text[len(text) - tail:], True
