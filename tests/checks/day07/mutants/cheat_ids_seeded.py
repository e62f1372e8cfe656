"""Cheat, provided code: the random part of a session id comes from a generator seeded
with a constant ("ids that repeat make tests reproducible").

Every process draws the same four hex digits first, so two people (or two terminals)
starting a session in the same second get the same id, which the random part is there
to prevent. Held when a check makes ids in several processes and compares them.
"""
TARGET = "mca/session/ids.py"
FAILS = ("session-id",)

import random


def new_session_id(now=None, _draw=random.Random(0x5E55).getrandbits):
    now = now or datetime.now(timezone.utc)
    return f"s-{now:%Y%m%d-%H%M%S}-{_draw(16):04x}"
