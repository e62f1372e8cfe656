"""E3: always asks for a streamed reply ("stream": true), copied from a streaming example.

Day 1's client reads one JSON answer; a real server would send server-sent events
that parse_reply cannot read (the fake server here answers in JSON anyway).
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape",)


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages], "stream": True}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
