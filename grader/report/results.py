"""The one result model every renderer reads: a `DayResult` of frozen `CheckResult`s."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Status(str, Enum):
    """How a check ended. A str, so `status == "passed"` and JSON both just work."""

    PASSED = "passed"
    FAILED = "failed"      # the lab is wrong
    ERROR = "error"        # the check itself broke
    TIMEOUT = "timeout"    # a child outlived its time limit
    SKIPPED = "skipped"    # could not run: a dependency failed, or the lab could not start

    def __str__(self) -> str:
        return self.value


STATUSES = tuple(s.value for s in Status)


@dataclass(frozen=True)
class CheckResult:
    """What one check found, built once (hint included).

    `expected`/`seen` are short texts for a failure; `repro` holds the shell lines of
    every child the check ran (printed with --keep); `hint` is the level `hint_level`
    of `hint_levels` the student is shown now.
    """

    id: str
    title: str
    status: Status
    message: str = ""
    expected: str | None = None
    seen: str | None = None
    hint: str | None = None
    hint_level: int = 0
    hint_levels: int = 0
    duration: float = 0.0
    repro: tuple[str, ...] = ()
    bonus: bool = False
    exercises: tuple[str, ...] = ()
    see_first: tuple[str, ...] = ()  # failing checks of the points this one also rests on

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # refuses an unknown status

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED

    def to_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "status": self.status.value, "message": self.message,
                "expected": self.expected, "seen": self.seen, "hint": self.hint, "hint_level": self.hint_level,
                "hint_levels": self.hint_levels, "duration": self.duration, "repro": list(self.repro),
                "bonus": self.bonus, "exercises": list(self.exercises), "see_first": list(self.see_first)}


def failure_lines(check: CheckResult) -> list[tuple[str, str]]:
    """(label, text) pairs that explain a check that did not pass, for every renderer:
    the message, then what was expected and seen, then the hint. Empty when it passed."""
    if check.passed:
        return []
    lines = [("message", check.message or check.status.value)]
    if check.see_first:
        from grader.i18n import word
        names = ", ".join(check.see_first)
        number = "one" if len(check.see_first) == 1 else "many"
        key = f"first.also_{number}" if check.exercises else f"first.only_{number}"
        lines.append(("first", word(key, names=names, exercises=", ".join(check.exercises))))
    if check.expected is not None:
        lines.append(("expected", check.expected))
    if check.seen is not None:
        lines.append(("seen", check.seen))
    if check.hint and check.status is not Status.SKIPPED:
        lines.append(("hint", check.hint))
    return lines


@dataclass(frozen=True)
class DayResult:
    """All checks of one day on one lab: core checks in `checks`, bonus in `bonus`.

    `seed` reproduces the run's generated inputs (`grader check DAY --seed N`);
    `blocked` says why no check could run (the lab could not start), if so; `cause`, why
    the checks that run the agent did not get an answer from it (it never answered), if so.
    """

    day_id: str
    title: str
    lab: str
    checks: tuple[CheckResult, ...] = ()
    bonus: tuple[CheckResult, ...] = ()
    environment: dict = field(default_factory=dict)
    duration: float = 0.0
    run_root: str | None = None
    seed: int | None = None
    blocked: str | None = None
    cause: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "bonus", tuple(self.bonus))

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
            "day_id": self.day_id, "title": self.title, "lab": self.lab,
            "checks": [c.to_dict() for c in self.checks], "bonus": [c.to_dict() for c in self.bonus],
            "environment": dict(self.environment), "duration": self.duration, "run_root": self.run_root,
            "seed": self.seed, "blocked": self.blocked, "cause": self.cause, "passed": self.passed, "total": self.total,
            "bonus_passed": self.bonus_passed, "bonus_total": self.bonus_total,
        }
