"""E1: a comment is a line starting with ": " (colon and space); any other line that is
neither data nor blank is refused as a protocol error.

Keep-alives come as `: keep-alive`, but also as a bare `:` or `:ping`; the format only
asks for the colon at the start. Being strict about the rest breaks on real servers.
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
                    payload, data = "\n".join(data), []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
            elif line.startswith(": "):
                continue
            elif line.startswith("data:"):
                value = line[5:]
                data.append(value[1:] if value.startswith(" ") else value)
            else:
                raise GatewayError(f"unexpected line in the stream: {line[:80]!r}")
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
