"""Recall: which memories go into a new session, and the message that carries them.

At the start of a session (never on resume: the log brings back what was sent), the
memories in force in both files are recalled:

* **project over user**: a user memory whose key a project memory also has is left
  out, however new it is: what this project says beats what the user said in general;
* **newest first** (by the time each was added, ``Memory.at``);
* **within a budget**: the recalled texts add up to at most ``budget`` characters.
  Memories are taken in order while the next one fits whole; the first that does not
  fit ends the recall (a memory is never cut, and no older one jumps the queue).
  What was left out is counted, and the bill says so.

The recalled memories become one system message (``render``), printed on the bill as
``memory: recalled K of N, C chars ≈ T tokens`` and logged as a ``recalled`` event
before the message itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..refs.bill import estimate_tokens
from .store import Memory

RECALL_BUDGET = 2000  # characters of memory text per session
HEADER = ("[memory: notes kept from earlier sessions, newest first; a project note wins over a user note "
          "with the same key]")


@dataclass
class Recall:
    """The memories to inject, in order, and how many in force were left out."""

    memories: list[Memory] = field(default_factory=list)
    left_out: int = 0


def recall(user: list[Memory], project: list[Memory], budget: int | None = RECALL_BUDGET) -> Recall:
    """The memories for a new session: project over user on the same key, newest first,
    the texts within ``budget`` characters (None: no budget)."""
    keys = {memory.key for memory in project}
    candidates = list(project) + [memory for memory in user if memory.key not in keys]
    candidates.sort(key=lambda memory: memory.at, reverse=True)
    if budget is None:
        return Recall(candidates, 0)
    taken, used = [], 0
    for memory in candidates:
        if used + len(memory.text) > budget:
            break  # the first that does not fit ends it: never cut, never skipped over
        taken.append(memory)
        used += len(memory.text)
    return Recall(taken, len(candidates) - len(taken))


def render(memories: list[Memory]) -> str:
    """The system message's text: the header, then one line per memory."""
    return HEADER + "\n" + "".join(f"- ({memory.scope}) {memory.text}\n" for memory in memories)


def bill_line(recalled: Recall, content: str) -> str:
    total = len(recalled.memories) + recalled.left_out
    return (f"memory: recalled {len(recalled.memories)} of {total}, "
            f"{len(content)} chars ≈ {estimate_tokens(content)} tokens")


def bill_event(recalled: Recall, content: str) -> dict:
    return {"ids": [memory.id for memory in recalled.memories], "left_out": recalled.left_out,
            "chars": len(content), "tokens": estimate_tokens(content)}
