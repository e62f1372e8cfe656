"""E3: a JSON body without a Content-Type header.

urllib then labels the body application/x-www-form-urlencoded; strict servers refuse
it (a 415 or 422), lenient ones guess.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape",)


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Authorization": f"Bearer {api_key}"},
    )
