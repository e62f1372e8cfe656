r"""E1: `codecs.iterdecode(chunks, "utf-8")` decodes the chunks (a split character is no
problem) and lines are cut on "\n": correct, until the stream is cut.

At the end iterdecode flushes its decoder: when the connection closed in the middle
of a character, that raises UnicodeDecodeError - a traceback where one line saying
the reply was cut belongs.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("stream-cut",)

import codecs


def read_events(chunks):
    pending = ""
    data = []
    for text in codecs.iterdecode(chunks, "utf-8"):
        pending += text
        *lines, pending = pending.split("\n")
        for line in lines:
            line = line.removesuffix("\r")
            if not line:
                if data:
                    payload, data = "\n".join(data), []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
