r"""A correct E1 written differently: the byte buffer is cut into whole events with a regex
on the blank line (\r?\n\r?\n), kept across chunks; each event's lines are then read.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ()

import re


def read_events(chunks):
    buffer = b""
    boundary = re.compile(rb"\r?\n\r?\n")
    for chunk in chunks:
        buffer += chunk
        while True:
            found = boundary.search(buffer)
            if found is None:
                break
            block, buffer = buffer[:found.start()], buffer[found.end():]
            data = [line[5:].removeprefix(b" ") for line in re.split(rb"\r?\n", block) if line.startswith(b"data:")]
            if not data:
                continue
            payload = b"\n".join(data).decode("utf-8")
            if payload == DONE:
                return
            yield payload_of(payload)
    raise GatewayError("incomplete reply: the stream stopped without [DONE]", transient=True)
