"""The figures of the reliability suite: how many cases each area tried, and how many held.

Each test calls ``figures.record(area, tried, held, note)``; the session writes them to a
JSON file and prints them as the Markdown table of ``docs/reliability.md``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Row:
    area: str
    tried: int
    held: int
    note: str = ""


class Figures:
    def __init__(self) -> None:
        self.rows: list[Row] = []

    def record(self, area: str, tried: int, held: int, note: str = "") -> None:
        for row in self.rows:  # a parametrized test adds up into one row
            if row.area == area:
                row.tried += tried
                row.held += held
                if note and note not in row.note:
                    row.note = f"{row.note}; {note}" if row.note else note
                return
        self.rows.append(Row(area, tried, held, note))

    def dump(self, path: Path) -> None:
        path.write_text(json.dumps([asdict(row) for row in self.rows], indent=2) + "\n")


def load(path: Path) -> list[Row]:
    return [Row(**item) for item in json.loads(Path(path).read_text())]


ORDER = ("torn", "damage", "killed", "two writers", "bad input", "durability", "known bug")


def _rank(row: Row) -> int:
    return next((n for n, prefix in enumerate(ORDER) if row.area.startswith(prefix)), len(ORDER))


def render(rows: list[Row]) -> str:
    """The Markdown table: the brief's areas in order, known bugs (xfail tests) last."""
    lines = ["| area | cases tried | held | notes |", "| --- | ---: | ---: | --- |"]
    for row in sorted(rows, key=_rank):
        lines.append(f"| {row.area} | {row.tried} | {row.held} | {row.note} |")
    return "\n".join(lines)
