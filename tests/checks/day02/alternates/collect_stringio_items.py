"""A correct E3 written differently: the text in an io.StringIO, the calls finished from
`sorted(pieces.items())`, the usage chosen with a conditional expression.
"""
TARGET = "mca/agent/loop.py"
FAILS = ()

import io


def collect(stream, history, emit):
    text = io.StringIO()
    pieces = {}
    reported = None
    for delta in stream:
        if delta.tool_call is not None:
            merge_chunk(pieces, delta.tool_call)
        if delta.usage is not None:
            reported = delta.usage
        if delta.text:
            emit(TextDelta(delta.text))
            text.write(delta.text)
    reply = ModelReply(text.getvalue(), [finish_call(i, piece) for i, piece in sorted(pieces.items())], reported)
    usage = reported if reported is not None else estimate_usage(history, reply)
    emit(UsageReported(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens))
    add_message(history, assistant_message(reply), emit)
    return reply
