"""The gradebook directory: batch.json, results.jsonl, gradebook.csv (and report.html).

    batch.json      what was graded: the day, its checks, the batch seed, the shards
    results.jsonl   one Row per line (batch.Row.to_dict: name, seed, outcome, note, the
                    full DayResult.to_dict() of a graded submission), sorted by name
    gradebook.csv   the same rows as a table, one column per check

results.jsonl is the record; gradebook.csv and report.html are rendered from it, so
`merge` reads only batch.json and results.jsonl. docs/grading-a-class.md documents
every column and key.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import grader
from grader.classroom.batch import CANNOT_START, GRADED, OUTCOMES, Row, one_line
from grader.classroom.submissions import GRADEBOOK_MARK
from grader.i18n import word

SCHEMA = "agent-lab/gradebook"
VERSION = 1
RESULTS, CSV_NAME, REPORT = "results.jsonl", "gradebook.csv", "report.html"
FILES = (GRADEBOOK_MARK, RESULTS, CSV_NAME, REPORT)
LEAD_COLUMNS = ("name", "outcome", "core_passed", "core_total", "bonus_passed", "bonus_total")
TAIL_COLUMNS = ("seed", "wall_seconds", "note")


class GradebookError(Exception):
    """A gradebook cannot be written, read or merged; the message names the fix (exit 2)."""


@dataclass
class Gradebook:
    meta: dict
    rows: list[Row]

    @property
    def day(self) -> str:
        return self.meta["day"]

    @property
    def checks(self) -> list[str]:
        return list(self.meta["checks"])


def new_meta(*, course: str, day: str, checks: list[str], only: list[str] | None, batch_seed: int | None,
             shards: list[str], jobs: int | None = None, timeout: float | None = None,
             sandbox: bool | None = None) -> dict:
    return {"schema": SCHEMA, "version": VERSION, "course": course, "day": day, "checks": list(checks),
            "only": list(only) if only else None, "batch_seed": batch_seed, "shards": list(shards),
            "grader": grader.__version__, "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "jobs": jobs, "timeout": timeout, "sandbox": sandbox}


# --------------------------------------------------------------------------- writing

def prepare_output(path: Path, *, force: bool) -> Path:
    """A directory to write a gradebook into: new, empty, or (with `force`) an old gradebook."""
    path = Path(path).expanduser()
    if path.is_file():
        raise GradebookError(word("gradebook.is_file", path=path))
    if path.is_dir() and any(path.iterdir()):
        if not (path / GRADEBOOK_MARK).is_file():
            raise GradebookError(word("gradebook.not_ours", path=path, mark=GRADEBOOK_MARK))
        if not force:
            raise GradebookError(word("gradebook.exists", path=path))
    return path


def csv_text(book: Gradebook) -> str:
    """gradebook.csv: one row per submission, one column per check (its status, or empty).
    A row that was not graded (a lab that could not start among them) has no scores or
    statuses: its outcome and its note (the cause, one line) say why."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*LEAD_COLUMNS, *book.checks, *TAIL_COLUMNS])
    for row in book.rows:
        result = (row.result or {}) if row.outcome == GRADED else {}
        statuses = {c["id"]: c["status"] for c in [*result.get("checks", []), *result.get("bonus", [])]}
        scores = [result.get(key, "") for key in ("passed", "total", "bonus_passed", "bonus_total")] \
            if row.outcome == GRADED else ["", "", "", ""]
        writer.writerow([_cell(row.name), row.outcome, *scores, *[statuses.get(c, "") for c in book.checks],
                         row.seed, f"{row.wall:.3f}", _cell(row.note)])
    return buffer.getvalue()


def _cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one line, and no formula (=, +, -, @ lead nothing)."""
    text = " ".join(str(text).split())
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def replace_text(path: Path, text: str) -> None:
    """Write `path` whole or not at all (a temp file beside it, then a rename)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def write(directory: Path, book: Gradebook) -> dict[str, Path]:
    """Write the gradebook's files (each replaced whole); returns them by name."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    book.rows.sort(key=lambda r: r.name)
    book.meta["submissions"] = len(book.rows)
    lines = "".join(json.dumps(r.to_dict(), ensure_ascii=False, sort_keys=True) + "\n" for r in book.rows)
    replace_text(directory / RESULTS, lines)
    replace_text(directory / CSV_NAME, csv_text(book))
    replace_text(directory / GRADEBOOK_MARK, json.dumps(book.meta, indent=2, ensure_ascii=False) + "\n")
    return {name: directory / name for name in (GRADEBOOK_MARK, RESULTS, CSV_NAME)}


# --------------------------------------------------------------------------- reading

def read(directory: Path) -> Gradebook:
    directory = Path(directory).expanduser()
    try:
        meta = json.loads((directory / GRADEBOOK_MARK).read_text(encoding="utf-8"))
        if not isinstance(meta, dict) or meta.get("schema") != SCHEMA:
            raise ValueError(word("gradebook.wrong_schema", schema=SCHEMA))
        if meta.get("version") != VERSION:
            raise ValueError(word("gradebook.wrong_version", version=meta.get("version"), known=VERSION))
        rows = []
        with open(directory / RESULTS, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        row = Row.from_dict(json.loads(line))
                    except (ValueError, KeyError, TypeError):
                        raise ValueError(word("gradebook.bad_line", file=RESULTS, line=number)) from None
                    if row.outcome not in OUTCOMES:
                        raise ValueError(word("gradebook.bad_line", file=RESULTS, line=number))
                    if row.outcome == GRADED and (row.result or {}).get("blocked"):  # written before cannot-start
                        row.outcome, row.note = CANNOT_START, one_line(row.result["blocked"])
                    rows.append(row)
        for key in ("day", "checks", "course"):
            if key not in meta:
                raise ValueError(word("gradebook.no_key", key=key))
    except FileNotFoundError as exc:
        raise GradebookError(word("gradebook.unreadable", path=directory,
                                  why=word("gradebook.missing_file", file=Path(exc.filename).name))) from None
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GradebookError(word("gradebook.unreadable", path=directory, why=why)) from None
    return Gradebook(meta, rows)


# --------------------------------------------------------------------------- merging

def merge(books: list[tuple[Path, Gradebook]]) -> tuple[Gradebook, list[str]]:
    """One gradebook from shards of one batch; GradebookError if they do not belong together.
    Returns the merged gradebook and warnings (shards that seem to be missing)."""
    (first_path, first), rest = books[0], books[1:]
    for path, book in rest:
        for key, message in (("course", "gradebook.courses_differ"), ("day", "gradebook.days_differ")):
            if book.meta[key] != first.meta[key]:
                raise GradebookError(word(message, first=first_path, second=path, one=first.meta[key],
                                          other=book.meta[key]))
        if book.checks != first.checks:
            raise GradebookError(word("gradebook.checks_differ", first=first_path, second=path))
    seen: dict[str, Path] = {}
    overlap: list[tuple[str, Path, Path]] = []
    for path, book in books:
        for row in book.rows:
            if row.name in seen:
                overlap.append((row.name, seen[row.name], path))
            seen.setdefault(row.name, path)
    if overlap:
        name, one, other = overlap[0]
        raise GradebookError(word("gradebook.overlap", count=len(overlap), name=name, first=one, second=other))
    shards = sorted((s for _, book in books for s in book.meta.get("shards") or []), key=_shard_order)
    seeds = {book.meta.get("batch_seed") for _, book in books}
    meta = new_meta(course=first.meta["course"], day=first.day, checks=first.checks, only=first.meta.get("only"),
                    batch_seed=seeds.pop() if len(seeds) == 1 else None, shards=shards)
    meta["merged_from"] = [str(path) for path, _ in books]
    rows = sorted((row for _, book in books for row in book.rows), key=lambda r: r.name)
    return Gradebook(meta, rows), _missing_shards(shards)


def _shard_order(text: str) -> tuple[int, int]:
    index, _, count = text.partition("/")
    return (int(count), int(index)) if index.isdigit() and count.isdigit() else (0, 0)


def _missing_shards(shards: list[str]) -> list[str]:
    counts = {s.partition("/")[2] for s in shards}
    if len(counts) != 1:
        return []
    count = int(counts.pop())
    missing = [f"{k}/{count}" for k in range(1, count + 1) if f"{k}/{count}" not in shards]
    return [word("gradebook.missing_shards", missing=", ".join(missing), count=count)] if missing else []
