"""E4: reads `message["content"]` with a subscript and maps None to "".

Null content is handled; a message that leaves the key out (providers that drop null
fields, a reply that only calls a tool) raises KeyError, and the reply is refused as
"not a chat completion".
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed",)


def parse_reply(body):
    try:
        data = json.loads(body)
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise GatewayError(f"the server's answer is not a chat completion: {body[:200]!r}") from None
    return content or ""
