"""The class in numbers, for the report: pass rates, common failures, the points that block.

`summarise` reads a gradebook (gradebook.py) and the day from course.toml, and counts; the
HTML page (report.py) only lays the numbers out, and tests read them here.

One rule for a lab that could not start (its package does not import; outcome
`cannot-start`): no check ran, so it is counted once, as a lab that could not start, with
its cause in one line (the heatmap, the CSV), and left out of every number about checks
and points: the graded count, the mean, the scores, the pass rates and what to teach again
(failing everything at once says nothing about any one check or point).

What counts: a check's pass rate is over the graded submissions it ran in. The most common
failure message is over failed, error and timeout results; messages that differ only in
the numbers they quote (generated inputs) count as one. A point blocks a student when a
core check resting on it (its `exercises` in course.toml) did not pass; it is named
`next:` when the student's own report would name it (text.py's rule).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from grader.classroom.batch import CANNOT_START, GRADED
from grader.classroom.gradebook import Gradebook
from grader.course import Day

FAILING = ("failed", "error", "timeout")


@dataclass
class CheckSummary:
    id: str
    label: str                 # its number in the student's report (1, 2 ...), *1, *2 ... for bonus
    title: str
    bonus: bool
    exercises: tuple[str, ...]
    ran: int = 0               # graded submissions in which it ran
    passed: int = 0
    failing: int = 0           # failed, error or timeout
    skipped: int = 0
    common: str | None = None  # the most common failure message (one real example of it)
    common_count: int = 0

    @property
    def rate(self) -> float | None:
        return self.passed / self.ran if self.ran else None


@dataclass
class PointSummary:
    id: str
    file: str
    summary: str
    checks: tuple[str, ...]    # the core checks that rest on it
    blocked: int = 0           # students (whose lab starts) failing at least one of those
    next_for: int = 0          # students whose report names it as `next:`


@dataclass
class ClassSummary:
    day: Day
    book: Gradebook
    outcomes: Counter
    graded: int                # labs whose checks ran: every number below is counted on these
    cannot_start: int          # labs that could not start (no check ran), counted apart
    all_passed: int
    core_total: int
    mean: float | None
    distribution: list[int]    # distribution[k]: graded submissions with k core checks passed
    checks: list[CheckSummary] = field(default_factory=list)
    points: list[PointSummary] = field(default_factory=list)

    @property
    def top_point(self) -> PointSummary | None:
        """The point that blocks most students (ties: named `next:` for more, then manifest order)."""
        ranked = [p for p in self.points if p.blocked]
        return max(ranked, key=lambda p: (p.blocked, p.next_for), default=None)


def _message_key(message: str) -> str:
    """Messages differ in the generated values they quote: numbers alone do not make a new one."""
    return re.sub(r"\d+", "#", " ".join(message.split()))


def _next_point(checks: list[dict], day: Day) -> str | None:
    """The point the student's own report names `next:` (grader/report/text.py's rule)."""
    counts = Counter(p for c in checks if c["status"] != "passed" for p in c.get("exercises", []))
    if not counts:
        return None
    best = max(counts.values())
    return next((e.id for e in day.exercises if counts.get(e.id) == best), None)


def summarise(book: Gradebook, day: Day) -> ClassSummary:
    results = [row.result for row in book.rows if row.outcome == GRADED and row.result
               and not row.result.get("blocked")]
    selected = set(book.checks)
    core_ids = [c.id for c in day.checks_core if c.id in selected]
    bonus_ids = [c.id for c in day.checks_bonus if c.id in selected]
    labels = {cid: str(n) for n, cid in enumerate((c.id for c in day.checks_core), 1)}
    labels.update({cid: f"*{n}" for n, cid in enumerate((c.id for c in day.checks_bonus), 1)})
    totals = [r.get("total", 0) for r in results]
    core_total = max(totals, default=len(core_ids))
    distribution = [0] * (core_total + 1)
    for result in results:
        distribution[min(result.get("passed", 0), core_total)] += 1
    summary = ClassSummary(
        day=day, book=book, outcomes=Counter(row.outcome for row in book.rows), graded=len(results),
        cannot_start=sum(1 for row in book.rows if row.outcome == CANNOT_START),
        all_passed=sum(1 for r in results if r.get("total") and r.get("passed") == r.get("total")),
        core_total=core_total, mean=(sum(r.get("passed", 0) for r in results) / len(results)) if results else None,
        distribution=distribution)

    for check in (day.check(cid) for cid in [*core_ids, *bonus_ids]):
        item = CheckSummary(check.id, labels[check.id], check.title, check.bonus, check.exercises)
        messages: Counter = Counter()
        example: dict[str, str] = {}
        for result in results:
            found = next((c for c in [*result.get("checks", []), *result.get("bonus", [])] if c["id"] == check.id),
                         None)
            if found is None:
                continue
            item.ran += 1
            status = found["status"]
            item.passed += status == "passed"
            item.skipped += status == "skipped"
            if status in FAILING:
                item.failing += 1
                text = found.get("message") or status
                key = _message_key(text)
                messages[key] += 1
                example.setdefault(key, text)
        if messages:
            key, count = max(messages.items(), key=lambda kv: kv[1])  # ties: the first seen (names sorted)
            item.common, item.common_count = example[key], count
        summary.checks.append(item)

    for exercise in day.exercises:
        resting = tuple(cid for cid in core_ids if exercise.id in day.check(cid).exercises)
        point = PointSummary(exercise.id, exercise.file, exercise.summary, resting)
        for result in results:
            failing = {c["id"] for c in result.get("checks", []) if c["status"] != "passed"}
            point.blocked += bool(failing & set(resting))
            point.next_for += _next_point(result.get("checks", []), day) == exercise.id
        summary.points.append(point)
    return summary
