"""compact() sends the older rounds to be summarised as the messages they are, between its
own system message and a closing user message that asks for the summary, and marks the
summary with a header of its own."""
TARGET = "mca/context/compact.py"
FAILS = ()


def compact(history, gateway, keep=KEEP_ROUNDS):
    before = context_tokens(history)
    cut = choose_cut(history, keep)
    if cut is None:
        return Compaction(history, before, before, skipped="no round older than the ones kept")
    start = prefix_end(history)
    request = ([{"role": "system", "content": "You summarise conversations for a coding agent."}]
               + [dict(m) for m in history[start:cut]]
               + [{"role": "user", "content": "Write a short summary of the conversation above."}])
    text = ""
    for delta in gateway.stream(request, None):
        if delta.text:
            text += delta.text
    text = text.strip()
    if not text:
        return Compaction(history, before, before, skipped="the summary came back empty")
    message = {"role": "user", "content": "Summary of what came before:\n" + text}
    new = history[:start] + [message] + history[cut:]
    after = context_tokens(new)
    if not after < before:
        return Compaction(history, before, before, skipped=f"no gain ({before} -> {after} tokens)")
    return Compaction(history=new, before=before, after=after, summary=message["content"],
                      summarised=cut - start, kept=len(history) - cut)
