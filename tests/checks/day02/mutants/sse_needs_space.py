"""E1: only lines that start with "data: " (with the space) carry data.

Right for OpenAI, which always sends the space; the format makes it optional and
other servers leave it out (ANOLISA#2209). Their payloads are dropped, and a
`data:[DONE]` is never seen, so the stream looks cut.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("sse-framing", "sse-split-anywhere")


def read_events(chunks):
    buffer = b""
    data = []
    for chunk in chunks:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8")
            if line == "":
                if data:
                    payload, data = "\n".join(data), []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
            elif line.startswith("data: "):
                data.append(line[len("data: "):])
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
