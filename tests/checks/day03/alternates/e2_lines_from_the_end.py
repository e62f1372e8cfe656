"""E2 that keeps whole lines, taken from the end and the start in turn (the end first), with a
note in characters and in lines; when not even the last line fits it cuts by characters."""
TARGET = "mca/tools/truncate.py"
FAILS = ()


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    lines = text.splitlines(keepends=True)

    def note(cut_chars, cut_lines):
        return (f"\n[truncated: {cut_chars} of {len(text)} characters"
                f" ({cut_lines} of {len(lines)} lines) left out]\n")

    room = max(0, limit - len(note(len(text), len(lines))))
    head, tail = [], []
    used, first, last = 0, 0, len(lines) - 1
    from_end = True
    while first <= last:
        line = lines[last] if from_end else lines[first]
        if used + len(line) > room:
            break
        if from_end:
            tail.insert(0, line)
            last -= 1
        else:
            head.append(line)
            first += 1
        used += len(line)
        from_end = not from_end
    if not tail:
        short = "\n[... {} of " + str(len(text)) + " characters cut ...]\n"
        room = max(0, limit - len(short.format(len(text))))
        h, t = room - room // 2, room // 2
        return text[:h] + short.format(len(text) - h - t) + (text[-t:] if t else ""), True
    start, end = "".join(head), "".join(tail)
    return start + note(len(text) - len(start) - len(end), len(lines) - len(head) - len(tail)) + end, True
