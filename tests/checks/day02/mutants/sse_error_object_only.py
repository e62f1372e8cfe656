"""E1: an error payload is read as `payload["error"]["message"]`.

Right for OpenAI's shape; some servers send `{"error": "some text"}`, and indexing a
string with "message" raises TypeError: a traceback instead of one line.
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
                    event = json.loads(payload)
                    if "error" in event:
                        raise GatewayError(f"the server reported an error mid-stream: {event['error']['message']}")
                    yield event
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
