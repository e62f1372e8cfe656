"""E2: replay walks its argument twice - once for the messages, once to count the
others - without making a list of it first.

`replay` takes any iterable of events. Given a generator (a streaming reader, or
`(e for e in events if ...)`), the second pass finds it exhausted and counts 0
skipped. One pass, or `list(events)` first.
"""
TARGET = "mca/session/replay.py"
FAILS = ("replay-counts",)


def replay(events):
    messages = [event.fields["message"] for event in events if event.type == "message"]
    skipped = sum(1 for event in events if event.type != "message")
    return Replayed(messages=messages, replayed=len(messages), skipped=skipped)
