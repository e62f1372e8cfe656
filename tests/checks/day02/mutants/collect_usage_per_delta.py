"""E3: emits a UsageReported as soon as a usage delta arrives, and the usual one at the end.

"Report things as they arrive" applied once too often: the round is counted twice.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("usage-reported",)


def collect(stream, history, emit):
    text = []
    pieces = {}
    usage = None
    for delta in stream:
        if delta.text:
            text.append(delta.text)
            emit(TextDelta(delta.text))
        if delta.tool_call is not None:
            merge_chunk(pieces, delta.tool_call)
        if delta.usage is not None:
            usage = delta.usage
            emit(UsageReported(usage.input_tokens, usage.output_tokens))
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply("".join(text), calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
