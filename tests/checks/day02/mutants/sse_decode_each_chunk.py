"""E1: decodes every chunk as it arrives (`chunk.decode("utf-8")`) and keeps a str buffer.

Tidy, and right as long as a chunk never ends inside a character. The network does
not promise that: a write split inside an emoji or a CJK character raises
UnicodeDecodeError, and so does a stream cut inside one (a traceback, not one line).
Bytes must be joined into lines before they are decoded.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("sse-split-anywhere", "stream-cut")


def read_events(chunks):
    buffer = ""
    data = []
    for chunk in chunks:
        buffer += chunk.decode("utf-8")
        *lines, buffer = buffer.split("\n")
        for line in lines:
            line = line.rstrip("\r")
            if line == "":
                if data:
                    payload = "\n".join(data)
                    data = []
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
