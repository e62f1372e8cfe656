"""E4: decodes the body as latin-1 before parsing ("bytes to text, any encoding works").

Every byte decodes, so nothing fails - but each CJK character and emoji turns into
several wrong ones: the JSON body is UTF-8.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed",)


def parse_reply(body):
    data = json.loads(body.decode("latin-1"))
    return data["choices"][0]["message"].get("content") or ""
