"""after_compaction() adds the summary after the system messages and keeps every message
("the log has them all, why drop any"): the resumed session is as big as before."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-honours-compacted",)


def after_compaction(messages, seqs, event):
    start = 0
    while start < len(messages) and messages[start].get("role") == "system":
        start += 1
    return (messages[:start] + [{"role": "user", "content": event.fields["summary"]}] + messages[start:],
            seqs[:start] + [event.fields["upto_seq"]] + seqs[start:])
