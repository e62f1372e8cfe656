"""compact() turns the "would it help" test around ("keep the old history when the new one is
smaller"): every compaction that would help is refused, only a useless one would go through."""
TARGET = "mca/context/compact.py"
FAILS = ("triggers-over-budget", "keeps-system-and-instructions", "compacted-event-logged", "no-useless-compaction",
         "bill-printed")


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="nothing to summarise")
    start = prefix_end(history)
    text = ask_for_summary(gateway, summary_request(history[start:cut]))
    if not text:
        return Compaction(history, before, before, skipped="empty summary")
    summary = SUMMARY_HEADER + text
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    after = context_tokens(new)
    if after < before:
        return Compaction(history, before, before, skipped=f"no gain ({before} -> {after} tokens)")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)
