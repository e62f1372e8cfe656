'''The question's default is yes: Enter (or the end of input) on the terminal overwrites the
user's change ("anything but no").'''
TARGET = "mca/snapshots/rollback.py"
FAILS = ("user-change-protected",)


def ask_on_terminal(path: str, to_seq: int) -> bool:
    """Ask whether to overwrite what the user changed; anything but yes (EOF too) is a no."""
    try:
        answer = input(f"  {path} changed since the agent's last change to it. Put it back as it was at "
                       f"seq {to_seq}, and lose that change? [y/N] ")
    except EOFError:
        return True
    return answer.strip().lower() not in ("n", "no")
