r"""E1: every `data:` line is a whole event, parsed as soon as it is read.

The shortcut most SSE snippets on the web take, and it works for providers that put
each payload on one line. The format lets a payload run over several `data:` lines,
joined with "\n" until the blank line; read alone, each of them is broken JSON.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("sse-framing", "sse-split-anywhere")


def read_events(chunks):
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8")
            if not line.startswith("data:"):
                continue  # blank lines, comments
            payload = line[5:].strip()
            if payload == DONE:
                return
            yield payload_of(payload)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
