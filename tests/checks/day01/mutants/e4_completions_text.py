"""E4: reads choices[0]["text"], the field of the older completions API.

No chat completion has it: every reply is a KeyError with a traceback, and a REPL
turn that raises it ends the REPL.
"""
TARGET = "mca/gateway/openai_compat.py"
FAILS = ("reply-parsed", "history-grows-linearly")


def parse_reply(body):
    return json.loads(body)["choices"][0]["text"] or ""
