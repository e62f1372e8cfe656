"""The shape of a generated session log: its lines, its events, and what a correct reader,
replay and fork-point listing must say about it (loggen.py draws them)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Event = dict[str, Any]
KNOWN_TYPES = ("message", "tool_end", "usage", "error", "fork")

# ----------------------------------------------------------------------------- the log

def encode(event: Event, *, compact: bool = False) -> bytes:
    """One line as the reference writes it (json.dumps defaults, non-ASCII kept as UTF-8).

    `compact` drops the spaces: the contract does not fix the layout, and a fork that
    re-serialises lines instead of copying them cannot reproduce it by accident.
    """
    separators = (",", ":") if compact else (", ", ": ")
    return (json.dumps(event, ensure_ascii=False, separators=separators) + "\n").encode("utf-8")


@dataclass(frozen=True)
class GeneratedLog:
    """A log's bytes (`lines`, one per event, each ending in `\\n`) and its events, and
    what a correct reader, replay and fork-point listing must say about it."""

    session_id: str
    lines: list[bytes]
    events: list[Event]
    voice: str = "mixed"  # how its messages speak (draws.VOICES): plain English, one script, or mixed

    @property
    def data(self) -> bytes:
        return b"".join(self.lines)

    @property
    def file_name(self) -> str:
        return f"{self.session_id}.jsonl"

    @property
    def messages(self) -> list[dict[str, Any]]:
        """What replay must return: the `message` of each message event, in log order.
        Copies, so a check cannot change the generator's answer by accident."""
        return [copy.deepcopy(e["message"]) for e in self.events if e["type"] == "message"]

    @property
    def replayed(self) -> int:
        return sum(e["type"] == "message" for e in self.events)

    @property
    def skipped(self) -> int:
        """Every other event, of a known type or not."""
        return len(self.events) - self.replayed

    @property
    def fork_points(self) -> list[int]:
        """Seqs of user messages and of assistant messages without tool_calls."""
        return [e["seq"] for e in self.events if e["type"] == "message" and _is_fork_point(e["message"])]

    @property
    def round_ends(self) -> list[int]:
        """Seqs of the tool result that completes a tool round (every call of the assistant
        message answered, each with its tool_end before): where a recovery fork may also start."""
        ends: list[int] = []
        waiting: set[str] = set()
        ended: set[str] = set()
        for e in self.events:
            if e["type"] == "tool_end":
                ended.add(e["id"])
            elif e["type"] == "message" and e["message"]["role"] == "tool" and e["message"]["tool_call_id"] in waiting:
                waiting.discard(e["message"]["tool_call_id"])
                if not waiting and calls <= ended:
                    ends.append(e["seq"])
            elif e["type"] == "message":
                calls = {c["id"] for c in e["message"].get("tool_calls") or []}
                waiting, ended = set(calls), set()
        return ends

    @property
    def recovery_points(self) -> list[int]:
        """Where a recovery fork may start: the fork points and the ends of complete tool rounds."""
        return sorted(set(self.fork_points) | set(self.round_ends))

    def write(self, sessions_dir: Path | str) -> Path:
        """Write `<sessions_dir>/<id>.jsonl` (creating the dir) and return its path."""
        path = Path(sessions_dir) / self.file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.data)
        return path


def _is_fork_point(message: dict[str, Any]) -> bool:
    return message["role"] == "user" or (message["role"] == "assistant" and not message.get("tool_calls"))
