"""A correct E4 written differently: a table from role to a test of the message
(missing roles - system, tool, anything new - are never clean); events without a
message are passed over.
"""
TARGET = "mca/session/fork.py"
FAILS = ()


def fork_points(events):
    clean_when = {
        "user": lambda message: True,
        "assistant": lambda message: len(message.get("tool_calls") or ()) == 0,
    }
    never = lambda message: False
    return [event.seq for event in events
            if event.message is not None
            and clean_when.get(event.message.get("role"), never)(event.message)]
