"""A correct E2 written differently: the events are listed once, the messages taken
with a comprehension through `Event.message`, and skipped is simply the rest
(`len(events) - len(messages)`).
"""
TARGET = "mca/session/replay.py"
FAILS = ()


def replay(events):
    events = list(events)
    messages = [event.message for event in events if event.type == "message"]
    return Replayed(messages, len(messages), len(events) - len(messages))
