"""E2 that reserves room for the widest note it could write, says what it omitted and what
it shows ("N characters omitted out of M; showing the first A and the last B"), and gives
the odd character to the end."""
TARGET = "mca/tools/truncate.py"
FAILS = ()


def truncate(text, limit=MAX_RESULT_CHARS):
    size = len(text)
    if size <= limit:
        return text, False
    template = ("\n<<< truncated: {omitted} characters omitted out of {size}; "
                "showing the first {first} and the last {last} >>>\n")
    widest = template.format(omitted=size, size=size, first=size, last=size)
    room = max(0, limit - len(widest))
    last = (room + 1) // 2
    first = room - last
    note = template.format(omitted=size - first - last, size=size, first=first, last=last)
    return text[:first] + note + (text[size - last:] if last else ""), True
