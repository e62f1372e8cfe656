"""`.grader/state.json` next to course.toml: revealed hint levels and last results.

    {"version": 1,
     "days": {"day-07": {"hints": {"torn-tail": 2},
                         "last": {"passed": 4, "total": 11, "when": "2026-...Z",
                                  "failed": ["written-as-it-happens", ...],
                                  "lab_sha256": "..."}}}}

`lab_sha256` (trees.fingerprint of the lab that was checked) lets a backup say whether
the recorded score is that of the very files it holds.

Writes are atomic (a temp file in the same directory, then rename), so a killed
grader never leaves half a file. A corrupt file is kept as `state.json.bak` and
the state starts fresh, with a warning rather than a crash.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from grader.i18n import word
from grader.report.results import DayResult

STATE_VERSION = 1


def state_path(course_root: Path) -> Path:
    return Path(course_root) / ".grader" / "state.json"


class State:
    def __init__(self, path: Path, data: dict | None = None, warnings: list[str] | None = None):
        self.path = path
        self.data = data or {"version": STATE_VERSION, "days": {}}
        self.warnings = warnings or []

    @classmethod
    def load(cls, course_root: Path, *, readonly: bool = False) -> "State":
        """The state next to course.toml. A corrupt file is moved aside (`.bak`) unless
        `readonly` (then it is only ignored, with the same warning)."""
        path = state_path(course_root)
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("version") != STATE_VERSION \
                    or not isinstance(data.get("days"), dict):
                raise ValueError("not a version-1 state object")
        except (OSError, ValueError) as exc:
            backup = path.with_name(path.name + ".bak")
            if readonly:
                return cls(path, warnings=[word("state.ignored", path=path, error=exc)])
            try:
                os.replace(path, backup)
                kept = word("state.kept", backup=backup)
            except OSError:
                kept = word("state.not_kept")
            return cls(path, warnings=[word("state.fresh", path=path, error=exc, kept=kept)])
        return cls(path, data)

    def _day(self, day_id: str) -> dict:
        day = self.data["days"].setdefault(day_id, {})
        if not isinstance(day.get("hints"), dict):
            day["hints"] = {}
        return day

    def revealed(self, day_id: str, check_id: str) -> int:
        level = self.data["days"].get(day_id, {}).get("hints", {}).get(check_id, 0)
        return level if isinstance(level, int) and level >= 0 else 0

    def reveal(self, day_id: str, check_id: str, level: int) -> None:
        """Record that hints 1..level of a check have been shown (never lowers it)."""
        hints = self._day(day_id)["hints"]
        hints[check_id] = max(self.revealed(day_id, check_id), level)

    def last(self, day_id: str) -> dict | None:
        last = self.data["days"].get(day_id, {}).get("last")
        return last if isinstance(last, dict) else None

    def record_result(self, result: DayResult, when: datetime | None = None,
                      lab_sha256: str | None = None) -> None:
        """Remember a full run's score (a run with --only is not a day's result)."""
        when = when or datetime.now(timezone.utc)
        self._day(result.day_id)["last"] = {
            "passed": result.passed,
            "total": result.total,
            "bonus_passed": result.bonus_passed,
            "bonus_total": result.bonus_total,
            "when": when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "failed": [c.id for c in result.all_results() if not c.passed],
        }
        if lab_sha256:
            self._day(result.day_id)["last"]["lab_sha256"] = lab_sha256

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".state-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.data, handle, indent=2, sort_keys=True)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
