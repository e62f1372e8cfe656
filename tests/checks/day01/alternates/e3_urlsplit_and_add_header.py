"""A correct E3 written differently: takes the URL apart with urllib.parse, strips the
slashes and a final /v1 from the path, puts /v1/chat/completions back; sets the
headers with add_header and writes the body with ensure_ascii=False.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ()

from urllib.parse import urlsplit, urlunsplit


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    url = urlunsplit((parts.scheme, parts.netloc, path + "/v1/chat/completions", "", ""))
    payload = {"model": model, "messages": [to_provider(m) for m in messages]}
    if stream:
        payload.update(stream=True, stream_options={"include_usage": True})
    if tools:
        payload["tools"] = [{"type": "function", "function": tool} for tool in tools]
    request = urllib.request.Request(url, data=json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    request.add_header("Authorization", "Bearer " + api_key)
    request.add_header("Content-Type", "application/json; charset=utf-8")
    request.method = "POST"
    return request
