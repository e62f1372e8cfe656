"""compact() asks for a summary of the whole conversation after the prefix ("a summary of
everything is more useful"), the kept rounds included."""
TARGET = "mca/context/compact.py"
FAILS = ("summary-request-shape",)


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="nothing to summarise")
    start = prefix_end(history)
    text = ask_for_summary(gateway, summary_request(history[start:]))
    if not text:
        return Compaction(history, before, before, skipped="empty summary")
    summary = SUMMARY_HEADER + text
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    after = context_tokens(new)
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)
