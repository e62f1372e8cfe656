r"""A correct E1 written differently: an incremental UTF-8 decoder turns the chunks into text
without breaking a character split between chunks (and is never flushed: bytes left at
a cut are simply not a line); lines are cut on "\n" only (never with splitlines), with
an optional "\r" dropped; a small dict holds the event being read.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ()

import codecs


def read_events(chunks):
    pending = ""
    event = {"data": []}
    decoder = codecs.getincrementaldecoder("utf-8")()
    for chunk in chunks:
        pending += decoder.decode(chunk)
        while "\n" in pending:
            line, pending = pending.split("\n", 1)
            if line.endswith("\r"):
                line = line[:-1]
            if not line:
                data, event = event["data"], {"data": []}
                if not data:
                    continue
                payload = "\n".join(data)
                if payload == DONE:
                    return
                yield payload_of(payload)
            elif line[0] != ":":
                name, colon, value = line.partition(":")
                if name == "data" and colon:
                    event["data"].append(value.removeprefix(" "))
    raise GatewayError("the reply was cut: the stream ended before data: [DONE]")
