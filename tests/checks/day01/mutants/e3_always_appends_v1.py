"""E3: always appends /v1/chat/completions to the base URL (trailing slashes dropped).

Right for a bare host, which is how many tutorials write the base; wrong for a base
that already ends in /v1 - the usual way providers give it - which becomes
/v1/v1/chat/completions and a 404.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape", "reply-parsed", "http-error-one-line", "history-grows-linearly")


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base_url.rstrip("/") + "/v1/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
