"""after_compaction() keeps the first message ("the system prompt") and nothing else of the
prefix: the recalled memory, a system message too, is lost on resume."""
TARGET = "mca/session/replay.py"
FAILS = ("replay-honours-compacted",)


def after_compaction(messages, seqs, event):
    upto = event.fields["upto_seq"]
    later = [k for k in range(1, len(messages)) if seqs[k] > upto]
    return ([messages[0], {"role": "user", "content": event.fields["summary"]}] + [messages[k] for k in later],
            [seqs[0], upto] + [seqs[k] for k in later])
