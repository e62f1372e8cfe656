"""E3: collects text and usage, and leaves tool-call deltas for later ("no tools on day 2").

The model's calls vanish: the reply is kept as plain text, nothing tells the person
what the model asked for, and day 3's loop would have nothing to run.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("two-calls-interleaved", "usage-reported")


def collect(stream, history, emit):
    text = []
    usage = None
    for delta in stream:
        if delta.text:
            text.append(delta.text)
            emit(TextDelta(delta.text))
        if delta.usage is not None:
            usage = delta.usage
    reply = ModelReply("".join(text), [], usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
