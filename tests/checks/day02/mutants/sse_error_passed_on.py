"""E1: every payload is parsed and handed on; an `{"error": ...}` payload too.

The reader is not the place that "understands" chunks, so the student passes the
error on like any other payload. Nothing downstream looks for an `error` key: the
server's message is lost, and the reply ends as if it were cut (or clean).
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("stream-cut",)

import json


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
                    yield json.loads(payload)
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
