"""E3: adds the assistant message first, then reports the usage.

It reads naturally ("here is the reply, and this is what it cost"), and nothing on
day 2 breaks outright; but the usage belongs before the message, the order the
session log keeps from day 7 on, and the screen shows the cost before the calls.
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
    add_message(history, assistant_message(reply), emit)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    return reply
