r"""E1: splits lines on b"\n" and decodes them, but never strips the "\r" of a CRLF line end.

JSON does not mind a trailing "\r" (it is whitespace), so a data line still parses;
but the blank line that ends an event is "\r", not "", so no CRLF event ever ends.
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
            line = raw.decode("utf-8")
            if line == "":
                if data:
                    payload, data = "\n".join(data), []
                    if payload.strip() == DONE:
                        return
                    yield payload_of(payload)
                continue
            if line.startswith(":"):
                continue
            if line.startswith("data:"):
                value = line[5:]
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
