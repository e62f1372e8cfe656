"""E3: always puts a "tools" key in the body, built from `tools or []` ("the key is always there").

Without tools (day 1 has none) the body carries `"tools": []`, which a real provider
refuses with a 400 ("Invalid 'tools': empty array"), and so does the grader's fake
server: no reply ever arrives.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed", "http-error-one-line")


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages],
            "tools": [{"type": "function", "function": tool} for tool in tools or []]}
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
