"""E1: decodes every chunk with `errors="replace"` so that a split character cannot crash it.

It no longer crashes; it quietly turns the two halves of a split character into
U+FFFD replacement characters, so the reply the agent keeps is not the one that was
sent. Join the bytes first, decode complete lines.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("sse-split-anywhere",)


def read_events(chunks):
    buffer = ""
    data = []
    for chunk in chunks:
        buffer += chunk.decode("utf-8", errors="replace")
        *lines, buffer = buffer.split("\n")
        for line in lines:
            line = line.rstrip("\r")
            if not line:
                if data:
                    payload, data = "\n".join(data), []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
            elif not line.startswith(":") and line.startswith("data:"):
                value = line[5:]
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
