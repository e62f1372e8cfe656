"""after_compaction() gives the summary the compacted event's own seq ("that is where it is
in the log"): a later compaction that replaces only the earlier summary keeps it."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-honours-compacted",)


def after_compaction(messages, seqs, event):
    upto = event.fields["upto_seq"]
    start = 0
    while start < len(messages) and messages[start].get("role") == "system":
        start += 1
    later = [k for k in range(start, len(messages)) if seqs[k] > upto]
    return (messages[:start] + [{"role": "user", "content": event.fields["summary"]}] + [messages[k] for k in later],
            seqs[:start] + [event.seq] + [seqs[k] for k in later])
