"""E3: a GatewayError in the middle of the stream ends the loop, and what arrived so far
is kept as the reply ("better half an answer than none").

The person sees a short answer and exit status 0; nothing says the reply was cut, and
the history now holds a message the model never finished.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("stream-cut",)


def collect(stream, history, emit):
    text = []
    pieces = {}
    usage = None
    try:
        for delta in stream:
            if delta.text:
                text.append(delta.text)
                emit(TextDelta(delta.text))
            if delta.tool_call is not None:
                merge_chunk(pieces, delta.tool_call)
            if delta.usage is not None:
                usage = delta.usage
    except GatewayError:
        pass
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply("".join(text), calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
