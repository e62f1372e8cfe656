"""E3: `text = delta.text` instead of adding to it.

The screen shows every piece as it comes, so the terminal looks perfect; the history
keeps only the last piece, and the model's next request reads a reply it never gave.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("sse-framing", "sse-split-anywhere")


def collect(stream, history, emit):
    text = ""
    pieces = {}
    usage = None
    for delta in stream:
        if delta.text:
            text = delta.text
            emit(TextDelta(delta.text))
        if delta.tool_call is not None:
            merge_chunk(pieces, delta.tool_call)
        if delta.usage is not None:
            usage = delta.usage
    calls = [finish_call(index, pieces[index]) for index in sorted(pieces)]
    reply = ModelReply(text, calls, usage)
    usage = usage or estimate_usage(history, reply)
    emit(UsageReported(usage.input_tokens, usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
