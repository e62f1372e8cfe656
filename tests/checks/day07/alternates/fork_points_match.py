"""A correct E4 written differently: structural pattern matching on each event's
message inside a generator - a user message, or an assistant message whose
`tool_calls` is not a non-empty list.
"""
TARGET = "mca/session/fork.py"
FAILS = ()


def fork_points(events):
    def clean(stream):
        for event in stream:
            match event.message:
                case {"role": "user"}:
                    yield event.seq
                case {"role": "assistant", "tool_calls": [_, *_]}:
                    continue
                case {"role": "assistant"}:
                    yield event.seq

    return list(clean(events))
