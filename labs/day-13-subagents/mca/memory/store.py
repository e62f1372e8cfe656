"""One memory file: append-only JSON lines, read back as the memories in force.

A memory is one line of text the agent was asked to keep (``remember``), in the
user's file (``~/.mca/memory.jsonl``, or ``$MCA_USER_MEMORY``) or the project's
(``<workdir>/.mca/memory.jsonl``, or ``$MCA_PROJECT_MEMORY``). Each file is written the
way day 7 writes a session log: a record is appended with one write at the end, and
nothing already in the file is ever rewritten, so a crash in the middle of a write can
cost at most the record being written, never the memories before it.

Two kinds of record::

    {"op": "add", "id": "m-3f9a1c", "key": "test command", "text": "test command: pytest -q", "at": 1764670000.25}
    {"op": "forget", "key": "test command", "at": 1764670100.5}

The **key** of a memory (``key_of``) is what makes two memories the same one: the text
before its first ``": "`` (``test command: pytest -q`` has the key ``test command``),
or the whole text when it has none, compared without case and with runs of white
space as one space. Reading applies the records in file order: an ``add`` puts its
memory in force under its key (a newer one with the same key replaces the older one:
duplicates are merged on reading, never by rewriting), and a ``forget`` (a tombstone)
takes the key out of force. The old records stay in the file; ``live`` is what counts.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from .secrets import looks_secret

SCOPES = ("user", "project")
KEY_SEPARATOR = ": "
MAX_KEY_CHARS = 60  # a longer text before ": " is a sentence, not a name: the whole text is the key


class MemoryRefused(Exception):
    """A memory that must not be written (it looks like a secret); the message says why."""


@dataclass(frozen=True)
class Memory:
    """One memory in force: its id, key, text, when it was added, and the file it is in."""

    id: str
    key: str
    text: str
    at: float
    scope: str = "project"


def key_of(text: str) -> str:
    """What makes two memories the same one: the text before its first ": " (or all of it),
    without case, with runs of white space as one space."""
    head, found, _ = text.partition(KEY_SEPARATOR)
    if not found or not head.strip() or len(head) > MAX_KEY_CHARS:
        head = text
    return " ".join(head.split()).casefold()


def append_record(path: Path, record: dict, fsync: bool = False) -> None:
    """Append one record as one line, with one write at the end of the file (O_APPEND).

    A file whose last line was cut short (a crash in the middle of a write) gets a newline
    first, so the new record is never glued onto the torn one; nothing before is touched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(record, ensure_ascii=False) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        size = os.fstat(fd).st_size
        if size:
            with open(path, "rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    line = "\n" + line
        os.write(fd, line.encode("utf-8"))
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)


def read_records(path: Path) -> list[dict]:
    """Every record the file holds, in order; a line that is not a record (torn, or from
    a newer version) is skipped, never fatal. No file: no records."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    records = []
    for raw in data.split(b"\n"):  # only \n ends a line: U+2028 inside a text is text
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        if isinstance(record, dict) and record.get("op") in ("add", "forget") and isinstance(record.get("key"), str):
            records.append(record)
    return records


def live(records: list[dict], scope: str = "project") -> list[Memory]:
    """The memories in force after these records, newest first: one per key."""
    current: dict[str, Memory] = {}
    for record in records:
        key = record["key"]
        current.pop(key, None)  # re-inserted below: the dict keeps the order of the latest add
        if record["op"] == "add" and isinstance(record.get("text"), str):
            at = record.get("at")
            current[key] = Memory(str(record.get("id", "")), key, record["text"],
                                  float(at) if isinstance(at, (int, float)) else 0.0, scope)
    return list(reversed(current.values()))


def new_id() -> str:
    return "m-" + secrets.token_hex(3)


class MemoryStore:
    """One scope's memory file."""

    def __init__(self, path: Path, scope: str = "project", known_secrets: tuple[str, ...] = (),
                 fsync: bool = False) -> None:
        self.path = Path(path)
        self.scope = scope
        self.known_secrets = tuple(known_secrets)  # values that must never be written (MCA_API_KEY's)
        self.fsync = fsync

    def records(self) -> list[dict]:
        return read_records(self.path)

    def memories(self) -> list[Memory]:
        """The memories in force in this file, newest first."""
        return live(self.records(), self.scope)

    def add(self, text: str) -> tuple[Memory, bool]:
        """Keep ``text``; returns the memory in force and whether a record was written
        (False: the same memory was already in force, so nothing needed writing).
        Raises MemoryRefused, writing nothing, for a text that looks like a secret."""
        reason = looks_secret(text, self.known_secrets)
        if reason:
            raise MemoryRefused(reason)
        key = key_of(text)
        record = {"op": "add", "id": new_id(), "key": key, "text": text, "at": time.time()}
        for memory in self.memories():
            if memory.key == key and memory.text == text:
                return memory, False  # a duplicate: merged by not writing it again
        append_record(self.path, record, self.fsync)  # one line at the end; the rest is never touched
        return Memory(record["id"], key, text, record["at"], self.scope), True

    def forget(self, key: str) -> None:
        """Take ``key`` out of force: a tombstone appended, nothing removed."""
        append_record(self.path, {"op": "forget", "key": key, "at": time.time()}, self.fsync)
