"""E3: sends the key as the whole Authorization header, without the "Bearer " scheme.

A server that checks the scheme (all OpenAI-compatible ones do, and so does the
grader's fake server) answers 401: the request shows it, and no reply arrives.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape", "reply-parsed", "http-error-one-line")


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": api_key},
    )
