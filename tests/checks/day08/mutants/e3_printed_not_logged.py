"""bill prints every line right but returns no event ("the screen is the bill"): the log
never learns what was injected."""
TARGET = "mca/refs/bill.py"
FAILS = ("bill-printed",)


def bill(injections):
    sent = [i for i in injections if i.note is None]
    if not sent:
        return Bill()
    lines = [f"injected: {i.ref} {i.chars} chars ≈ {estimate_tokens(i.sent)} tokens" for i in sent]
    chars = sum(i.chars for i in sent)
    tokens = sum(estimate_tokens(i.sent) for i in sent)
    lines.append(f"injected: total {len(sent)} refs, {chars} chars ≈ {tokens} tokens")
    return Bill(lines, None)
