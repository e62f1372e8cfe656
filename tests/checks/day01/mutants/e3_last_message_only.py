"""E3: puts only the newest message into the body ("the API needs the new prompt").

Chat.ask hands over the whole history, and the HTTP client throws it away: the
trap of E1 again, one layer down, where only the wire shows it.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape", "history-grows-linearly")


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    base = base_url.rstrip("/")
    if not base.endswith("/v1"):
        base += "/v1"
    body = {"model": model, "messages": [to_provider(messages[-1])]}
    return urllib.request.Request(
        base + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
