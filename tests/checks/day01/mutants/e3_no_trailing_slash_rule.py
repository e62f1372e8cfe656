"""E3: adds /v1 when the base does not end in it, but forgets the trailing slash.

http://host and http://host/v1 work; http://host/v1/ does not end in "/v1", so it
becomes http://host/v1//v1/chat/completions, a 404.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape",)


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url if base_url.endswith("/v1") else base_url + "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
