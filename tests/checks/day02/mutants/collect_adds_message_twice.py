"""E3: appends the reply to the history itself, and also through add_message.

add_message already appends (and emits): doing both keeps every reply twice, and
every later request sends the model a conversation in which it repeated itself.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("sse-framing", "sse-split-anywhere", "two-calls-interleaved")


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
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    message = assistant_message(reply)
    history.append(message)
    add_message(history, message, emit)
    return reply
