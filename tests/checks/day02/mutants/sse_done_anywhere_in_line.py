"""E1: ends the stream on any line that holds "[DONE]" (`if "[DONE]" in line: return`).

The end marker is an event whose whole data is [DONE]; a reply that talks about SSE
("the stream ends with `data: [DONE]`") carries the same letters inside a delta's
JSON, and the reply stops there, silently, as if it were complete.
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
                    payload = "\n".join(data)
                    data = []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
                continue
            if DONE in line:
                return
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
