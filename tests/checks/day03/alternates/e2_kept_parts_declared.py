"""E2 that declares what it kept rather than what it cut: "showing the first A and the
last B of N characters", two thirds of the room to the start."""
TARGET = "mca/tools/truncate.py"
FAILS = ()


def truncate(text, limit=MAX_RESULT_CHARS):
    if len(text) <= limit:
        return text, False
    longest = f"\n<<< showing the first {limit} and the last {limit} of {len(text)} characters >>>\n"
    room = max(0, limit - len(longest))
    head = room * 2 // 3
    tail = room - head
    note = f"\n<<< showing the first {head} and the last {tail} of {len(text)} characters >>>\n"
    return text[:head] + note + text[len(text) - tail:], True
