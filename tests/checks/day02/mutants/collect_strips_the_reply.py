"""E3: streams every piece as it comes, and keeps the reply tidied: the assistant message
holds `"".join(text).strip()` ("a reply should not start or end with blanks").

What the screen showed is right; what the history holds is not what the model said: a
reply that opened with an indented line or closed with a line break is sent back changed.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("sse-framing", "sse-split-anywhere")


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
    reply = ModelReply("".join(text).strip(), calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
