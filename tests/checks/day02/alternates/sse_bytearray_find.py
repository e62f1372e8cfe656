r"""A correct E1 written differently: a bytearray buffer searched with `find(b"\n")`, each
complete line decoded on its own; comments and other fields are skipped by one test.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ()


def read_events(chunks):
    buffer = bytearray()
    lines = []
    for chunk in chunks:
        buffer.extend(chunk)
        start = 0
        while (end := buffer.find(b"\n", start)) != -1:
            line = bytes(buffer[start:end]).removesuffix(b"\r").decode("utf-8")
            start = end + 1
            if line:
                if line.startswith("data:"):
                    lines.append(line[6:] if line.startswith("data: ") else line[5:])
                continue
            if lines:
                payload = "\n".join(lines)
                lines.clear()
                if payload == DONE:
                    return
                yield payload_of(payload)
        del buffer[:start]
    raise GatewayError("stream cut: the connection closed without [DONE]", transient=True)
