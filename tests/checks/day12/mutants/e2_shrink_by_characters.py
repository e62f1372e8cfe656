"""compact() decides whether the summary helps by characters ("a shorter text is a smaller
context"): a summary in a wide script can hold fewer characters and more tokens than the
English round it replaces, and a narrow one the opposite."""
TARGET = "mca/context/compact.py"
FAILS = ("no-useless-compaction",)


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
    if len(summary) >= sum(len(message_text(m)) for m in history[start:cut]):
        return Compaction(history, before, before, skipped="the summary is not shorter")
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    return Compaction(new, before, context_tokens(new), summary, summarised=cut - start, kept=len(history) - cut)
