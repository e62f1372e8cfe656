"""E4: returns choices[0].message.content as it is.

Fine for every text reply; a reply without text (content null, as when a model only
calls tools) comes back as None, and the CLI prints the word "None".
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed",)


def parse_reply(body):
    return json.loads(body)["choices"][0]["message"]["content"]
