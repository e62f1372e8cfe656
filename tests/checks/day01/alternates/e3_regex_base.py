"""A correct E3 written differently: one regular expression drops an optional /v1 and any
trailing slashes, and the endpoint is always appended whole.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ()

import re


def build_request(base_url, api_key, model, messages, *, stream=False, tools=None):
    root = re.sub(r"(?:/v1)?/*$", "", base_url)
    body = json.dumps({"model": model, "messages": [to_provider(m) for m in messages]})
    return urllib.request.Request(f"{root}/v1/chat/completions", data=body.encode(), method="POST",
                                  headers={"authorization": f"Bearer {api_key}", "content-type": "application/json"})
