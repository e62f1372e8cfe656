"""bill counts an injection's size in UTF-8 bytes ("that is what goes over the wire"):
right for ASCII, too large for CJK and emoji."""
TARGET = "mca/refs/bill.py"
FAILS = ("bill-printed",)


def bill(injections):
    sent = [i for i in injections if i.note is None]
    if not sent:
        return Bill()
    lines, refs = [], []
    for injection in sent:
        size = len(injection.sent.encode("utf-8"))
        tokens = estimate_tokens(injection.sent)
        lines.append(f"injected: {injection.ref} {size} chars ≈ {tokens} tokens")
        refs.append({"ref": injection.ref, "kind": injection.kind, "chars": size, "tokens": tokens,
                     "truncated": injection.truncated})
    chars, tokens = sum(r["chars"] for r in refs), sum(r["tokens"] for r in refs)
    lines.append(f"injected: total {len(refs)} refs, {chars} chars ≈ {tokens} tokens")
    return Bill(lines, {"refs": refs, "chars": chars, "tokens": tokens})
