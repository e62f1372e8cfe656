"""E1: every blank line dispatches an event, even when no `data:` line came before it.

A comment (`: keep-alive`) is followed by a blank line like any event, so the reader
tries to parse an empty payload and reports it as an error. An event without data
is nothing to dispatch.
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
