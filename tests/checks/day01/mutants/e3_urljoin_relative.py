"""E3: joins with urllib.parse.urljoin(base, "chat/completions") - the library way.

urljoin replaces the last path segment unless the base ends in a slash, so
http://host/v1 becomes http://host/chat/completions; only http://host/v1/ works.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("request-shape", "reply-parsed", "http-error-one-line", "history-grows-linearly")

from urllib.parse import urljoin


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    body = {"model": model, "messages": [to_provider(m) for m in messages]}
    return urllib.request.Request(
        urljoin(base_url, "chat/completions"), data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"},
    )
