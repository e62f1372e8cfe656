"""E3: puts the default model name into the body instead of the model it was given.

Works against the one provider whose default it is; MCA_MODEL is silently ignored.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape",)


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": "gpt-4o-mini", "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
