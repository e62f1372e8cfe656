"""E4: null-safe, and tidy: `return (content or "").strip()`.

Null content is an empty reply, as it should be; but a reply that starts with an
indented line or ends with a line break is printed changed, and the history keeps the
changed text, not what the model said.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed",)


def parse_reply(body):
    try:
        data = json.loads(body)
        content = data["choices"][0]["message"].get("content")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise GatewayError(f"the server's answer is not a chat completion: {body[:200]!r}") from None
    return (content or "").strip()
