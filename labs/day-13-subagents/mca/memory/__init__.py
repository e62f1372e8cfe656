"""Memory: what the agent was asked to keep survives the session.

* ``store``   - one append-only file of records, read back as the memories in force (``MemoryStore``);
* ``secrets`` - a text that looks like a secret is refused before anything is written (``looks_secret``);
* ``recall``  - which memories a new session starts with, and the message and bill that carry them;
* ``tool``    - the ``remember`` tool the model calls (a write: day 5's gate asks first).

``Memories`` holds the two files: the user's (``$MCA_USER_MEMORY``, else
``~/.mca/memory.jsonl``) and the project's (``$MCA_PROJECT_MEMORY``, else
``<workdir>/.mca/memory.jsonl``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .recall import RECALL_BUDGET, Recall, recall
from .store import SCOPES, Memory, MemoryRefused, MemoryStore, key_of

USER_FILE = Path(".mca") / "memory.jsonl"      # under the home directory
PROJECT_FILE = Path(".mca") / "memory.jsonl"   # under the workdir


@dataclass
class Memories:
    """The user's and the project's memory files."""

    user: MemoryStore
    project: MemoryStore
    budget: int = RECALL_BUDGET

    @classmethod
    def open(cls, workdir: Path, env: dict | None = None) -> "Memories":
        env = os.environ if env is None else env
        known = tuple(v for v in (env.get("MCA_API_KEY", ""),) if v)
        fsync = env.get("MCA_FSYNC", "") not in ("", "0")
        user = Path(env.get("MCA_USER_MEMORY") or Path(env.get("HOME") or Path.home()) / USER_FILE)
        project = Path(env.get("MCA_PROJECT_MEMORY") or Path(workdir) / PROJECT_FILE)
        return cls(MemoryStore(user, "user", known, fsync), MemoryStore(project, "project", known, fsync))

    def store(self, scope: str) -> MemoryStore:
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
        return self.user if scope == "user" else self.project

    def recall(self, budget: int | None = None) -> Recall:
        """What a new session starts with (``budget``: this object's unless given)."""
        return recall(self.user.memories(), self.project.memories(), self.budget if budget is None else budget)

    def listing(self) -> list[Memory]:
        """Every memory in force, in recall order, without a budget: what /memory numbers."""
        return recall(self.user.memories(), self.project.memories(), None).memories


__all__ = ["Memories", "Memory", "MemoryRefused", "MemoryStore", "Recall", "key_of", "recall"]
