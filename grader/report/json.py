"""The machine-readable result: schema `agent-lab/check-result`, version 1.

Documented in docs/json-schema.md. Adding a key is compatible; renaming or
removing one, or changing a type, bumps the version.
"""

from __future__ import annotations

import json

from grader.report.results import DayResult

SCHEMA = "agent-lab/check-result"
VERSION = 1
CHECK_KEYS = ("id", "title", "status", "message", "expected", "seen", "duration", "bonus", "exercises",
              "see_first", "hint", "hint_level", "hint_levels", "repro")


def to_json_data(result: DayResult) -> dict:
    checks = []
    for check in result.all_results():
        data = check.to_dict()
        checks.append({key: data[key] for key in CHECK_KEYS})
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "day": result.day_id,
        "lab": result.lab,
        "python": result.environment.get("python"),
        "seed": result.seed,
        "blocked": result.blocked,
        "cause": result.cause,
        "passed": result.passed,
        "total": result.total,
        "bonus_passed": result.bonus_passed,
        "bonus_total": result.bonus_total,
        "checks": checks,
    }


def render_json(result: DayResult) -> str:
    return json.dumps(to_json_data(result), indent=2, ensure_ascii=False) + "\n"
