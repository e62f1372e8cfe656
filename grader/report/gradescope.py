"""Gradescope autograder results.json.

Each core check is worth one point. Bonus checks are listed with max_score 0 and
score 0 (they show in the feedback but never change the grade). A failing
test's output carries its message, expected/seen and first hint. Besides the fields
Gradescope's specification names (score, execution_time, output, visibility, tests
with name, score, max_score, status, output, visibility), `max_score` at the top says
the day's total and `extra_data` keeps the seed, so a disputed score can be replayed
with `grader check DAY --seed N`.
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.i18n import word
from grader.report.results import CheckResult, DayResult, failure_lines


def _output(check: CheckResult) -> str:
    if check.passed:
        return word("summary.passed")
    lines = failure_lines(check)
    head = f"{check.status.value}: {lines[0][1]}"
    return "\n".join([head] + [word(f"label.{label}") + text for label, text in lines[1:]])


def to_gradescope(result: DayResult) -> dict:
    tests = []
    for check in result.all_results():
        tests.append({
            "name": word("summary.bonus_name", check=check.id) if check.bonus else check.id,
            "score": 0 if check.bonus else (1 if check.passed else 0),
            "max_score": 0 if check.bonus else 1,
            "status": "passed" if check.passed else "failed",
            "output": f"{check.title}\n{_output(check)}",
            "visibility": "visible",
        })
    return {
        "score": result.passed,
        "max_score": result.total,
        "output": word("summary.day", day=result.day_id, passed=result.passed, total=result.total,
                       bonus_passed=result.bonus_passed, bonus_total=result.bonus_total),
        "visibility": "visible",
        "execution_time": round(result.duration),
        "extra_data": {"day": result.day_id, "seed": result.seed, "grader": result.environment.get("grader")},
        "tests": tests,
    }


def write_gradescope(result: DayResult, path: Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(to_gradescope(result), indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
