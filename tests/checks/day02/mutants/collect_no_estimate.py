"""E3: reports the usage only when the server sent a usage chunk.

Fine for a provider that honours include_usage; one that does not leaves the round
without any cost at all, and later days (the session log, the budget) count on one
usage per round.
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
    if usage is not None:
        emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
