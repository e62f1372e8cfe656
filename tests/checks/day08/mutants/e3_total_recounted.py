"""bill's total estimates the tokens of all the texts joined together instead of adding
up the lines: rounding makes the total disagree with the lines it sums."""
TARGET = "mca/refs/bill.py"
FAILS = ("bill-printed",)


def bill(injections):
    sent = [i for i in injections if i.note is None]
    if not sent:
        return Bill()
    lines, refs = [], []
    for injection in sent:
        tokens = estimate_tokens(injection.sent)
        lines.append(f"injected: {injection.ref} {injection.chars} chars ≈ {tokens} tokens")
        refs.append({"ref": injection.ref, "kind": injection.kind, "chars": injection.chars, "tokens": tokens,
                     "truncated": injection.truncated})
    chars = sum(r["chars"] for r in refs)
    tokens = estimate_tokens("".join(i.sent for i in sent))
    lines.append(f"injected: total {len(refs)} refs, {chars} chars ≈ {tokens} tokens")
    return Bill(lines, {"refs": refs, "chars": chars, "tokens": tokens})
