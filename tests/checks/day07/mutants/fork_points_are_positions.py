"""E4: fork points are positions in the list (`enumerate(events, 1)`), not seqs.

On a whole log they coincide; on the events resume hands over (those before a damaged
line) or one event at a time (the provided `clean_prefix_size`) they do not.
"""
TARGET = "mca/session/fork.py"
FAILS = ("damaged-then-continue", "dangling-tool-call", "fork-copies-prefix", "fork-points", "missing-line", "parent-untouched")


def fork_points(events: Iterable[Event]) -> list[int]:
    return [position for position, event in enumerate(events, start=1)
            if event.message is not None
            and (event.message.get("role") == "user"
                 or (event.message.get("role") == "assistant" and not event.message.get("tool_calls")))]
