"""compact() names the three parts (prefix, older, kept) and measures the new history before
asking anything more of it, with the same rules in another order."""
TARGET = "mca/context/compact.py"
FAILS = ()


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(list(history), before, before, skipped="nothing to compact yet")
    prefix, older, kept = history[:prefix_end(history)], history[prefix_end(history):cut], history[cut:]
    written = ask_for_summary(gateway, summary_request(older))
    summary = SUMMARY_HEADER + written
    new = [*prefix, {"role": "user", "content": summary}, *kept]
    if not written.strip() or context_tokens(new) >= before:
        return Compaction(list(history), before, before, skipped="the summary would not help")
    return Compaction(new, before, context_tokens(new), summary=summary, summarised=len(older), kept=len(kept))
