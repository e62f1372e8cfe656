"""E1: a stream that simply ends is taken as finished.

Everything reads fine, [DONE] included; but when the connection closes without
[DONE] the generator just returns, so a cut reply looks like a short complete answer
and the agent carries on as if nothing happened (ANOLISA#2209: EOF treated as clean).
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("stream-cut",)


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
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            if field == "data":
                data.append(value[1:] if value.startswith(" ") else value)
