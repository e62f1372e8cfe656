"""The one result model every renderer reads: a `DayResult` of `CheckResult`s."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

STATUSES = ("passed", "failed", "error", "timeout", "skipped")


@dataclass
class CheckResult:
    """What one check found.

    status: passed | failed (the lab is wrong) | error (the check itself broke) |
    timeout (a child outlived its time limit) | skipped (pytest.skip, e.g. a
    dependency failed). `expected`/`seen` are short texts for a failure; `repro`
    holds the shell lines of every child the check ran (printed with --keep).
    """

    id: str
    title: str
    status: str
    message: str = ""
    expected: str | None = None
    seen: str | None = None
    hint: str | None = None
    duration: float = 0.0
    repro: tuple[str, ...] = ()
    bonus: bool = False
    exercises: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {STATUSES}")

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["repro"] = list(self.repro)
        data["exercises"] = list(self.exercises)
        return data


@dataclass
class DayResult:
    """All checks of one day on one lab: core checks in `checks`, bonus in `bonus`."""

    day_id: str
    title: str
    lab: str
    checks: list[CheckResult] = field(default_factory=list)
    bonus: list[CheckResult] = field(default_factory=list)
    environment: dict = field(default_factory=dict)
    duration: float = 0.0
    run_root: str | None = None

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.passed)

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def bonus_passed(self) -> int:
        return sum(1 for c in self.bonus if c.passed)

    @property
    def bonus_total(self) -> int:
        return len(self.bonus)

    @property
    def all_core_passed(self) -> bool:
        return self.passed == self.total

    def all_results(self) -> list[CheckResult]:
        return [*self.checks, *self.bonus]

    def to_dict(self) -> dict:
        return {
            "day_id": self.day_id,
            "title": self.title,
            "lab": self.lab,
            "checks": [c.to_dict() for c in self.checks],
            "bonus": [c.to_dict() for c in self.bonus],
            "environment": dict(self.environment),
            "duration": self.duration,
            "run_root": self.run_root,
            "passed": self.passed,
            "total": self.total,
            "bonus_passed": self.bonus_passed,
            "bonus_total": self.bonus_total,
        }
