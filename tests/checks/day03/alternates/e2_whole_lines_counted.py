"""E2 that cuts at line boundaries and declares the cut in lines: whole lines from the
start and from the end, and a note of how many lines of how many were left out."""
TARGET = "mca/tools/truncate.py"
FAILS = ()


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    lines = text.splitlines(keepends=True)
    note = "[... {cut} of {total} lines not shown ...]\n".format
    budget = limit - len(note(cut=len(lines), total=len(lines)))
    head, tail = [], []
    front, back = 0, len(lines) - 1
    used = 0
    turn = True
    while front <= back:
        line = lines[front] if turn else lines[back]
        if used + len(line) > budget:
            break
        used += len(line)
        if turn:
            head.append(line)
            front += 1
        else:
            tail.insert(0, line)
            back -= 1
        turn = not turn
    shown = "".join(head)
    if shown and not shown.endswith("\n"):
        shown += "\n"
    cut = len(lines) - len(head) - len(tail)
    return (shown + note(cut=cut, total=len(lines)) + "".join(tail))[:limit], True
