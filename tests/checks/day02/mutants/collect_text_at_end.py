"""E3: collects the text first and emits it as one TextDelta when the stream ends.

Everything on the screen and in the history is right - at the end. The person stares
at an empty terminal until the model has finished: that is what streaming is for.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("streams-before-done",)


def collect(stream, history, emit):
    text = []
    pieces = {}
    usage = None
    for delta in stream:
        if delta.text:
            text.append(delta.text)
        if delta.tool_call is not None:
            merge_chunk(pieces, delta.tool_call)
        if delta.usage is not None:
            usage = delta.usage
    if text:
        emit(TextDelta("".join(text)))
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply("".join(text), calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
