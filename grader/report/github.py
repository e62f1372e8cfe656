"""GitHub Actions: an `::error` annotation per failing check and a step summary table.

Only active when GITHUB_ACTIONS=true. The summary is appended (never overwritten)
to the file named by $GITHUB_STEP_SUMMARY, as the runner expects.
"""

from __future__ import annotations

import os
from pathlib import Path

from grader.i18n import word
from grader.report.results import DayResult, failure_lines


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotations(result: DayResult, files: dict[str, str] | None = None) -> list[str]:
    """One line per failing check; `files` maps a check id to the file to attach it to
    (the exercise point's file, relative to the workspace), so it shows on the code."""
    lines = []
    for check in result.all_results():
        if check.passed or check.status == "skipped":
            continue
        kind = "warning" if check.bonus else "error"
        title = _escape_property(f"{result.day_id} {check.id} ({check.status})")
        message = "\n".join(text if label == "message" else word(f"label.{label}") + text
                            for label, text in failure_lines(check))
        where = f"file={_escape_property(files[check.id])}," if files and check.id in files else ""
        lines.append(f"::{kind} {where}title={title}::{_escape_data(message)}")
    return lines


def summary_markdown(result: DayResult) -> str:
    def cell(text: str) -> str:
        return (text or "").replace("|", "\\|").replace("\n", " ")

    rows = ["### " + word("summary.day", day=result.day_id, passed=result.passed, total=result.total,
                          bonus_passed=result.bonus_passed, bonus_total=result.bonus_total), "",
            word("summary.table_head"), "| --- | --- | --- |"]
    for check in result.all_results():
        name = word("summary.bonus_check", check=check.id) if check.bonus else check.id
        rows.append(f"| {cell(name)} | {check.status.value} | {cell(check.message)} |")
    return "\n".join(rows) + "\n\n"


def active(env=None) -> bool:
    return (env if env is not None else os.environ).get("GITHUB_ACTIONS") == "true"


def exercise_files(day, lab: Path, env=None) -> dict[str, str]:
    """Check id -> the file of its one exercise point, relative to $GITHUB_WORKSPACE (or
    the cwd). Checks resting on several points, or labs outside it, get no file."""
    env = env if env is not None else os.environ
    base = Path(env.get("GITHUB_WORKSPACE") or Path.cwd()).resolve()
    files = {}
    for check in day.all_checks:
        if len(check.exercises) != 1:
            continue
        path = (Path(lab) / day.exercise(check.exercises[0]).file).resolve()
        if path.is_relative_to(base):
            files[check.id] = path.relative_to(base).as_posix()
    return files


def emit(result: DayResult, write, env=None, files: dict[str, str] | None = None) -> None:
    """Print annotations through `write` and append the summary, when running in Actions."""
    env = env if env is not None else os.environ
    if not active(env):
        return
    for line in annotations(result, files):
        write(line)
    summary = env.get("GITHUB_STEP_SUMMARY")
    if summary:
        with Path(summary).open("a", encoding="utf-8") as handle:
            handle.write(summary_markdown(result))
