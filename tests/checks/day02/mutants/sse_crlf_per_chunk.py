r"""E1: turns CRLF into LF in each chunk as it arrives, then splits events on b"\n\n".

Neat, and right whenever a chunk holds whole line ends. When a chunk ends between
the "\r" and the "\n" of the blank line, neither half is replaced, the b"\n\n" is
never there, and two events run into one.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("sse-split-anywhere",)


def read_events(chunks):
    buffer = b""
    for chunk in chunks:
        buffer += chunk.replace(b"\r\n", b"\n")
        *events, buffer = buffer.split(b"\n\n")
        for event in events:
            data = []
            for raw in event.split(b"\n"):
                line = raw.rstrip(b"\r").decode("utf-8")
                if line.startswith(":") or not line:
                    continue
                field, _, value = line.partition(":")
                if field == "data":
                    data.append(value[1:] if value.startswith(" ") else value)
            if not data:
                continue
            payload = "\n".join(data)
            if payload == DONE:
                return
            yield payload_of(payload)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
