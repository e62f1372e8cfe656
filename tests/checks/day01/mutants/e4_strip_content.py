"""E4: tidies the reply with .strip() on the way out.

Harmless on text, a crash on null content: None has no strip, and the AttributeError
ends the one-shot with a traceback.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed",)


def parse_reply(body):
    data = json.loads(body)
    return data["choices"][0]["message"]["content"].strip()
