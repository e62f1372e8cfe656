"""GitHub Actions: an `::error` annotation per failing check and a step summary table.

Only active when GITHUB_ACTIONS=true. The summary is appended (never overwritten)
to the file named by $GITHUB_STEP_SUMMARY, as the runner expects.
"""

from __future__ import annotations

import os
from pathlib import Path

from grader.results import DayResult


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotations(result: DayResult) -> list[str]:
    lines = []
    for check in result.all_results():
        if check.passed or check.status == "skipped":
            continue
        kind = "warning" if check.bonus else "error"
        title = _escape_property(f"{result.day_id} {check.id} ({check.status})")
        message = check.message or check.status
        if check.expected is not None or check.seen is not None:
            message += f"\nexpected: {check.expected}\nseen: {check.seen}"
        if check.hint:
            message += f"\nhint: {check.hint}"
        lines.append(f"::{kind} title={title}::{_escape_data(message)}")
    return lines


def summary_markdown(result: DayResult) -> str:
    def cell(text: str) -> str:
        return (text or "").replace("|", "\\|").replace("\n", " ")

    rows = [f"### {result.day_id}: {result.passed}/{result.total} passed, "
            f"bonus {result.bonus_passed}/{result.bonus_total}", "",
            "| check | status | message |", "| --- | --- | --- |"]
    for check in result.all_results():
        name = f"{check.id} (bonus)" if check.bonus else check.id
        rows.append(f"| {cell(name)} | {check.status} | {cell(check.message)} |")
    return "\n".join(rows) + "\n\n"


def active(env=None) -> bool:
    return (env if env is not None else os.environ).get("GITHUB_ACTIONS") == "true"


def emit(result: DayResult, write, env=None) -> None:
    """Print annotations through `write` and append the summary, when running in Actions."""
    env = env if env is not None else os.environ
    if not active(env):
        return
    for line in annotations(result):
        write(line)
    summary = env.get("GITHUB_STEP_SUMMARY")
    if summary:
        with Path(summary).open("a", encoding="utf-8") as handle:
            handle.write(summary_markdown(result))
