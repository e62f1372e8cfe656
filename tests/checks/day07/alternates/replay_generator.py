"""A correct E2 written differently: a nested generator yields the message of each
message event while it counts the others in a one-element list; the list of
messages is built in one pass, so a one-shot iterator of events works too.
"""
TARGET = "mca/session/replay.py"
FAILS = ()


def replay(events):
    others = [0]

    def rebuilt(stream):
        for event in stream:
            if event.type == "message":
                yield event.fields["message"]
            else:
                others[0] += 1

    messages = list(rebuilt(events))
    return Replayed(messages=messages, replayed=len(messages), skipped=others[0])
