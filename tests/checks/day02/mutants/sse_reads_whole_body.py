"""E1: joins all the chunks first (`b"".join(chunks)`), then parses the events.

Every event comes out right, so the text is exact - but only when the server has
finished: nothing reaches the screen while the model is still writing. Streaming
needs the generator to yield inside the loop over the chunks. (And a stream cut inside
a character crashes here, when its incomplete last line is decoded.)
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("streams-before-done", "stream-cut")


def read_events(chunks):
    body = b"".join(chunks)
    data = []
    for raw in body.split(b"\n"):
        line = raw.rstrip(b"\r").decode("utf-8")
        if line == "":
            if data:
                payload, data = "\n".join(data), []
                if payload == DONE:
                    return
                yield payload_of(payload)
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
