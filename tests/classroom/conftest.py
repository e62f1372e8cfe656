"""Helpers for the tests of grading a class: the CLI in process, rows, and leftover processes."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from typer.testing import CliRunner

from grader.cli import app
from tests.grader.conftest import course_dir  # noqa: F401 (the tiny synthetic course, as a fixture here too)

KIT = Path(__file__).resolve().parents[2]


def invoke(*args):
    """`grader ARGS` in process (stdout and stderr apart)."""
    return CliRunner().invoke(app, [str(a) for a in args])


def csv_rows(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as handle:
        return {row["name"]: row for row in csv.DictReader(handle)}


def jsonl_rows(out: Path) -> dict[str, dict]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["name"]: row for row in map(json.loads, lines)}


def statuses(row: dict) -> dict[str, str]:
    result = row["result"] or {}
    return {c["id"]: c["status"] for c in [*result.get("checks", []), *result.get("bonus", [])]}


def leftovers(marker: str) -> list[str]:
    """Live processes (not this one) whose command line or cwd mentions `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[-1].split()[0] in (b"Z", b"X"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if marker in cmdline or marker in cwd:
            found.append(f"{entry}: {cmdline[:200]} (cwd {cwd})")
    return found
