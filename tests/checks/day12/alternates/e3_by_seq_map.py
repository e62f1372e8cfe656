"""after_compaction() splits the list with itertools.takewhile and filters the rest by seq
with zip, building the two lists side by side."""
TARGET = "mca/session/replay.py"
FAILS = ()

import itertools


def after_compaction(messages, seqs, event):
    upto, summary = event.fields["upto_seq"], event.fields["summary"]
    head = list(itertools.takewhile(lambda pair: pair[0].get("role") == "system", zip(messages, seqs)))
    tail = [(m, s) for m, s in zip(messages[len(head):], seqs[len(head):]) if s > upto]
    pairs = head + [({"role": "user", "content": summary}, upto)] + tail
    return [m for m, _ in pairs], [s for _, s in pairs]
