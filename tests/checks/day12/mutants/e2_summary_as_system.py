"""compact() puts the summary in a system message ("it is context, not something the user
said"): the next compaction takes it for the prefix, and replay puts it back as a user message."""
TARGET = "mca/context/compact.py"
FAILS = ("compacted-event-logged", "replay-honours-compacted", "bill-printed")
MAYBE = ("keeps-system-and-instructions",)


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
    new = history[:start] + [{"role": "system", "content": summary}] + history[cut:]
    after = context_tokens(new)
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)
