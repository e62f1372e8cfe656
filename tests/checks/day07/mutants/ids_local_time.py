"""Session ids made from the local time instead of UTC."""
TARGET = "mca/session/ids.py"
FAILS = ("session-id",)


def new_session_id(now=None):
    now = now or datetime.now()
    return f"s-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
