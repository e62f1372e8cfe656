"""E3: encodes the body with str(body) instead of json.dumps - a Python dict's repr.

It looks like JSON in a print (braces, colons), but uses single quotes and None:
the server cannot parse it and answers 400 to every request.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape", "reply-parsed", "http-error-one-line", "history-grows-linearly")


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base + "/chat/completions", data=str(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
