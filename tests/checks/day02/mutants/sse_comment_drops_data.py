"""E1: a comment line clears the data lines read so far ("whatever came before a
keep-alive was not an event").

Right when comments only come between events; a keep-alive between two `data:` lines
of one event (the format allows it: a comment is skipped, only a blank line ends an
event) throws away the first half of the payload, and what is left is not JSON.
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
            if line.startswith(":"):
                data = []
                continue
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
