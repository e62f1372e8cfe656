"""compact() measures the history as characters / 4 ("about four characters a token"), not by
day 8's estimate: CJK and emoji are counted at a quarter of what the bill says."""
TARGET = "mca/context/compact.py"
ADD = ("rough_size",)
FAILS = ("compacted-event-logged", "bill-printed")
MAYBE = ("no-useless-compaction",)


def rough_size(messages):
    return sum(len(message_text(m)) for m in messages) // 4


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = rough_size(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="nothing to summarise")
    start = prefix_end(history)
    text = ask_for_summary(gateway, summary_request(history[start:cut]))
    if not text:
        return Compaction(history, before, before, skipped="empty summary")
    summary = SUMMARY_HEADER + text
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    after = rough_size(new)
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)
