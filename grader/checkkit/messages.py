"""The message catalogue: every sentence a check says to a student lives in TOML.

A day's folder holds `messages.toml` (`[section] name = "... {placeholder} ..."`);
the kit's own sentences (about children: a crash, a stub, a traceback) are in
grader/checkkit/messages.toml. A day's catalogue may use a section of the kit's
name to say things its own way. Keeping the text in data makes a second language a
second copy of the files, not a change to the code.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

KIT_MESSAGES = Path(__file__).with_name("messages.toml")


class Messages:
    """Sentences by `section.name`, the day's first, then the kit's."""

    def __init__(self, *paths: Path):
        self.paths = [Path(p) for p in paths if Path(p).is_file()]
        self._tables = [tomllib.loads(p.read_text(encoding="utf-8")) for p in self.paths]

    @classmethod
    def for_day(cls, checks_dir: Path) -> "Messages":
        return cls(Path(checks_dir) / "messages.toml", KIT_MESSAGES)

    def __call__(self, key: str, **values) -> str:
        section, _, name = key.partition(".")
        for table in self._tables:
            if name in table.get(section, {}):
                return table[section][name].format(**values)
        where = ", ".join(map(str, self.paths)) or "no catalogue"
        raise KeyError(f"no message {key!r} in {where}")
