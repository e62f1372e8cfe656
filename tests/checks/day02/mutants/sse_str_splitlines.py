r"""E1: decodes with an incremental decoder (so split characters are fine) and cuts the
text into lines with `str.splitlines(keepends=True)`, which handles CRLF by itself.

`splitlines` also breaks at U+2028, U+2029 and U+0085, which JSON leaves unescaped
(`ensure_ascii=False`): a payload whose text holds one is cut in two and no longer
parses. SSE lines end at CR, LF or CRLF only.
"""
TARGET = "mca/gateway/sse.py"
FAILS = ("streams-before-done", "sse-framing", "sse-split-anywhere", "stream-cut", "two-calls-interleaved",
         "usage-reported")

import codecs


def read_events(chunks):
    decoder = codecs.getincrementaldecoder("utf-8")()
    text = ""
    data = []
    for chunk in chunks:
        text += decoder.decode(chunk)
        lines = text.splitlines(keepends=True)
        text = lines.pop() if lines and not lines[-1].endswith("\n") else ""
        for line in lines:
            line = line.rstrip("\r\n")
            if line == "":
                if data:
                    payload, data = "\n".join(data), []
                    if payload == DONE:
                        return
                    yield payload_of(payload)
            elif not line.startswith(":") and line.startswith("data:"):
                value = line[5:]
                data.append(value[1:] if value.startswith(" ") else value)
    raise GatewayError("the reply was cut: the stream ended without [DONE]", transient=True)
