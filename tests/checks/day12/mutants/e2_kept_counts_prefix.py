"""compact() counts what it kept as everything but the summary ("the prefix is kept too"):
the compacted event's upto_seq then points before messages the summary replaced."""
TARGET = "mca/context/compact.py"
FAILS = ("compacted-event-logged", "replay-honours-compacted", "bill-printed")


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
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(new) - 1)
