"""after_compaction() keeps the messages from upto_seq on ("up to" read as "starting at"):
the last message the summary replaced comes back beside it."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-honours-compacted",)


def after_compaction(messages, seqs, event):
    upto = event.fields["upto_seq"]
    start = 0
    while start < len(messages) and messages[start].get("role") == "system":
        start += 1
    later = [k for k in range(start, len(messages)) if seqs[k] >= upto]
    return (messages[:start] + [{"role": "user", "content": event.fields["summary"]}] + [messages[k] for k in later],
            seqs[:start] + [upto] + [seqs[k] for k in later])
