"""E3: the assistant message it adds holds the reply's text only; the calls go back in the
reply, for whoever runs them ("the history keeps what the model said").

The calls are shown and answered, so the history gets a tool result for each, right
after an assistant message that made no call. The next request carries tool messages
answering no call, which a real provider refuses with a 400, and so does the grader's
fake server: the next turn gets no reply. And the screen, which shows a call when the
message that makes it joins the history, shows none.
"""
TARGET = "mca/agent/loop.py"
FAILS = ("two-calls-interleaved", "usage-reported")


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
    add_message(history, {"role": "assistant", "content": reply.text}, emit)
    return reply
