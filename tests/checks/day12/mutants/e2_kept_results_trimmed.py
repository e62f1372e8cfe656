"""compact() also shortens the kept rounds' tool results to 200 characters ("they were read
already, the model has seen them"): the last K rounds are no longer what was sent."""
TARGET = "mca/context/compact.py"
ADD = ("_trimmed",)
FAILS = ("keeps-system-and-instructions",)
MAYBE = ("replay-honours-compacted",)


def _trimmed(message):
    if message.get("role") == "tool" and len(str(message.get("content", ""))) > 200:
        return {**message, "content": str(message["content"])[:200] + " [trimmed]"}
    return message


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
    new = history[:start] + [{"role": "user", "content": summary}] + [_trimmed(m) for m in history[cut:]]
    after = context_tokens(new)
    if after >= before:
        return Compaction(history, before, before, skipped="not smaller")
    return Compaction(new, before, after, summary, summarised=cut - start, kept=len(history) - cut)
