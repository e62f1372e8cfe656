"""Is a message list a valid chat history? The rule every chat API enforces.

Every ``tool`` message answers a call of the assistant message before it, and every
call is answered before the next message that is not a tool result. A model cannot
continue a history that breaks this (a real API answers 400), so the mock refuses
it too, and a session whose log ends in the middle of a tool round is not sent as
it is.
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("system", "user", "assistant", "tool")


@dataclass(frozen=True)
class Break:
    """Where a history stops being valid, and why."""

    index: int      # of the first message a valid history cannot have
    problem: str


def find_break(messages: list[dict]) -> Break | None:
    """The first place ``messages`` is not a valid, complete history; None if it is one.

    A last assistant message whose calls have no results yet is such a place too:
    the history is incomplete, and no request may be sent with it.
    """
    waiting: list[str] = []  # call ids of the last assistant message, not answered yet
    asked_at = -1            # index of that assistant message
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        where = f"message {index + 1} ({role})"
        if role not in ROLES:
            return Break(index, f"{where}: unknown role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in waiting:
                return Break(index, f"{where} answers call {call_id!r}, which the assistant message "
                                    "before it did not make")
            waiting.remove(call_id)
            continue
        if waiting:
            return Break(asked_at, f"message {asked_at + 1} (assistant): call {waiting[0]!r} has no result "
                                   f"before message {index + 1} ({role})")
        if role == "assistant":
            waiting = [str(call.get("id")) for call in message.get("tool_calls") or []]
            asked_at = index
    if waiting:
        return Break(asked_at, f"message {asked_at + 1} (assistant): call {waiting[0]!r} has no result")
    return None
