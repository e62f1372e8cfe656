"""compact() uses whatever summary comes back ("the model knows best"): a longer one, or an
empty one, replaces the older rounds anyway."""
TARGET = "mca/context/compact.py"
FAILS = ("no-useless-compaction",)


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="nothing to summarise")
    start = prefix_end(history)
    summary = SUMMARY_HEADER + ask_for_summary(gateway, summary_request(history[start:cut]))
    new = history[:start] + [{"role": "user", "content": summary}] + history[cut:]
    return Compaction(new, before, context_tokens(new), summary, summarised=cut - start, kept=len(history) - cut)
