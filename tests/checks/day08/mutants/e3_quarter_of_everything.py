"""estimate_tokens is the familiar "four characters a token" for every script, rounded
up: CJK and emoji are billed at a quarter of what the documented rule says."""
TARGET = "mca/refs/bill.py"
FAILS = ("bill-printed",)


def estimate_tokens(text):
    return (len(text) + 3) // 4
