"""estimate_tokens takes "wide" to start where Latin-1 ends (U+0100): accented Latin
beyond it, Greek, Cyrillic, Hebrew and Arabic are billed a token each, as if they were
CJK, though they take two bytes in UTF-8 and the documented rule counts them a quarter."""
TARGET = "mca/refs/bill.py"
FAILS = ("bill-printed",)


def estimate_tokens(text):
    wide = sum(1 for ch in text if ord(ch) >= 0x100)
    return (len(text) - wide + 3) // 4 + wide
