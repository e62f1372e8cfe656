"""E3: UsageReported(output, input): the two counts in the wrong order.

Usage(input_tokens, output_tokens) and UsageReported(input_tokens, output_tokens)
look alike; passing them positionally from memory swaps them, and the cost shown is
wrong (prompt tokens are usually far more than completion tokens).
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
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply("".join(text), calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.output_tokens, usage.input_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
