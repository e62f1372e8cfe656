"""after_compaction() keeps the last `kept` messages the event counted (messages[-kept:]), not
those logged after upto_seq: with K = 0, kept is 0 and [-0:] is every message, the replaced
ones and the system prompt again (a hold-out class)."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-honours-compacted",)


def after_compaction(messages, seqs, event):
    lead = 0
    while lead < len(messages) and messages[lead].get("role") == "system":
        lead += 1
    n = int(event.fields.get("kept", 0))
    return (messages[:lead] + [{"role": "user", "content": event.fields["summary"]}] + messages[-n:],
            seqs[:lead] + [event.fields["upto_seq"]] + seqs[-n:])
