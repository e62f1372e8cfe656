"""The watch loop: grade everything once, then re-grade on each save only what it touched.

It takes its events from a source (grader/watch/sources.py) and grades through
`grade` (the engine's `run_day` unless a test gives another), so it can be driven
without a file system watcher or a single child process.

Progress and hints follow `grader check` for the day's own lab, and are left alone
for any other directory. A run of every check records the day's result as `grader
check` does (with the lab's fingerprint). A run of some checks records the latest
result of each check, those re-run and those kept, without a fingerprint: the score
was not proven on exactly these files in one run. Only the check whose hint the view
shows has that hint level marked as shown.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from pathlib import Path

from grader.course import Course, Day
from grader.engine import EngineError, not_a_lab, run_day
from grader.i18n import word
from grader.lab import hints as hinting
from grader.lab.state import State
from grader.report.results import DayResult, Status
from grader.watch.plan import AFTER_TROUBLE, FIRST, ON_KEY, Plan, Snapshot, is_ignored, plan_for
from grader.watch.sources import END, Changed, Failed, Key
from grader.watch.view import Board, Screen

QUIET = 0.15         # seconds without a save that end a burst (watchfiles already groups 50 ms)
LONGEST_BURST = 2.0  # a file written without pause (a log in the lab) still gets graded
RERUN_KEYS = {"a", "A", "\n", "\r"}
QUIT_KEYS = {"q", "Q", "\x04"}


class WatchFailed(Exception):
    """The file watcher stopped; the message is one line for the student."""


class Watch:
    def __init__(self, course: Course, day: Day, lab: Path, *, source, screen: Screen, seed: int,
                 own_lab: bool, shown_lab: str, grade=run_day, keys: bool = False):
        self.course, self.day, self.lab = course, day, Path(lab)
        self.source, self.screen, self.grade = source, screen, grade
        self.own_lab = own_lab
        self.board = Board(day=day, lab=shown_lab, seed=seed, keys=keys)
        self.snapshot: Snapshot | None = None
        self.needs_full = False     # the last run left nothing to build a partial run on
        self.running = False
        self.quit_asked = False
        self.pushed: list = []      # an event that ended a burst, handled after its run

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Grade, then wait for events until q (0) or the source ends (0). Ctrl-C raises
        KeyboardInterrupt (the engine's Interrupted) to the caller."""
        self.screen.start(self.board)
        self.grade_plan(FIRST, first=True)
        while True:
            event = self.pushed.pop() if self.pushed else self.source.get(timeout=0.5)
            if event is None:
                self.screen.idle(self.board)
                continue
            plan = self.handle(event)
            if plan == "quit":
                return 0
            if plan is not None:
                self.grade_plan(plan)

    def handle(self, event):
        """What one event asks for: a Plan, "quit", or None (nothing to do)."""
        if event is END:
            return "quit"
        if isinstance(event, Failed):
            raise WatchFailed(event.why)
        if isinstance(event, Key):
            if event.key in QUIT_KEYS:
                return "quit"
            return ON_KEY if event.key in RERUN_KEYS else None
        if isinstance(event, Changed):
            paths, after = self.burst(set(event.paths))
            if isinstance(after, Key) and after.key in QUIT_KEYS:
                return "quit"
            if isinstance(after, Key) and after.key in RERUN_KEYS:
                return ON_KEY       # every check: the saves are in it
            if after is not None:
                self.pushed.append(after)   # the end of the source, a failed watcher: after this run
            return self.plan_changes(paths)
        return None

    def burst(self, paths: set[str]):
        """Gather the saves that follow within QUIET of each other (editors write several
        times). Returns the paths, and the first other event if one ended the burst."""
        started = time.monotonic()
        while time.monotonic() - started < LONGEST_BURST:
            event = self.source.get(timeout=QUIET)
            if event is None:
                return paths, None
            if not isinstance(event, Changed):
                return paths, event
            paths |= event.paths
        return paths, None

    def plan_changes(self, paths: set[str]) -> Plan | None:
        runtime = self.course.runtime_dirs
        counted = {p for p in paths if not is_ignored(p, runtime)}
        if not counted:
            return None
        real = self.snapshot.differing(counted) if self.snapshot is not None else counted
        if not real:
            self.say(word("watch.unchanged", files=", ".join(sorted(counted)[:3])))
            return None
        plan = plan_for(self.day, real, runtime)
        if plan is None:
            return None
        if self.needs_full and not plan.is_full:
            return dataclasses.replace(AFTER_TROUBLE, files=plan.files, points=plan.points)
        if plan.checks == ():
            self.say(word("watch.no_checks", files=", ".join(plan.files), points=", ".join(plan.points)))
            return None
        return plan

    def say(self, text: str) -> None:
        self.board.note = text
        self.screen.notice(self.board, text)

    # ------------------------------------------------------------------ one run

    def grade_plan(self, plan: Plan, *, first: bool = False) -> None:
        board = self.board
        problem = not_a_lab(self.course, self.day, self.lab)
        if problem:   # mid-save (a file moved away) or for good: no run until the next save
            if first:
                raise EngineError(problem)
            self.needs_full = True
            self.say(word("watch.not_a_lab", day=self.day.id, problem=problem))
            return
        board.run += 1
        board.plan, board.notices, board.note, board.fresh, board.seconds = plan, [], None, set(), None
        selected = None if plan.is_full else set(plan.checks)
        board.pending = {c.id for c in self.day.all_checks} if selected is None else set(selected)
        board.running = True
        state = self.load_state()
        self.snapshot = Snapshot(self.lab, self.course.runtime_dirs)   # before the engine copies the lab
        fingerprint = None
        if self.own_lab and selected is None:
            from grader.scaffold import trees
            fingerprint = trees.fingerprint(self.lab, self.course.runtime_dirs)
        self.screen.run_started(board)
        started = time.perf_counter()
        self.running = True
        try:
            result = self.grade(self.course, self.day, self.lab, select=selected, seed=board.seed,
                                hint_levels=hinting.report_levels(state, self.day) if state else None,
                                on_check=self.check_done)
        except EngineError as exc:
            if first:
                raise
            self.needs_full = True
            board.running, board.pending, board.live = False, set(), {}
            board.seconds = time.perf_counter() - started
            board.notices = [word("watch.run_failed", why=str(exc).splitlines()[0])]
            self._source_ready()
            self.screen.run_ended(board)
            return
        finally:
            self.running = False
        board.seconds = result.duration or (time.perf_counter() - started)
        self.take(result, selected)
        board.running, board.pending, board.live = False, set(), {}
        self.record(state, selected is None, fingerprint)
        self._source_ready()
        self.screen.run_ended(board)

    def _source_ready(self) -> None:
        """The view says "watching for saves" once the watcher is watching (it started before
        the first run, and is all but always ready by its end)."""
        wait = getattr(self.source, "wait_ready", None)
        if wait is not None:
            wait()

    def check_done(self, check_id: str, status) -> None:
        """The engine finished one check: show its mark at once (a run takes seconds)."""
        self.board.pending.discard(check_id)
        self.board.live[check_id] = str(status)
        self.screen.check_done(self.board)

    def take(self, result: DayResult, selected: set[str] | None) -> None:
        """Fold a run's results into the board: all of them, or the re-run ones over the kept."""
        board = self.board
        ran = {r.id: r for r in result.all_results()}
        if selected is None:
            board.results = ran
        else:
            board.results.update(ran)
            board.fresh = set(ran)
        self.needs_full = bool(result.blocked)
        board.blocked = result.blocked
        board.cause = getattr(result, "cause", None)
        if result.blocked:
            if selected is not None:   # the lab cannot start: no kept line holds any more
                skipped = next(iter(ran.values()), None)
                for check_id, kept in list(board.results.items()):
                    if check_id not in ran and skipped is not None:
                        board.results[check_id] = dataclasses.replace(
                            kept, status=Status.SKIPPED, message=skipped.message, expected=None, seen=None,
                            see_first=(), hint=None, hint_level=0)
                board.fresh = set()    # no line is kept, and none was re-run: the lab did not start

    def merged(self) -> DayResult:
        results = self.board.results
        return DayResult(day_id=self.day.id, title=self.day.title, lab=str(self.lab),
                         checks=tuple(results[c.id] for c in self.day.checks_core if c.id in results),
                         bonus=tuple(results[c.id] for c in self.day.checks_bonus if c.id in results),
                         seed=self.board.seed)

    # ------------------------------------------------------------------ progress

    def load_state(self) -> State | None:
        """The day's progress, read afresh each run (`grader hint` in another terminal may
        have moved a hint on); None for a directory that is not the day's own lab."""
        if not self.own_lab:
            return None
        state = State.load(self.course.root)
        self.board.notices += state.warnings
        return state

    def record(self, state: State | None, full: bool, fingerprint: str | None) -> None:
        board = self.board
        shown = board.next_check() if not board.blocked else None   # a lab that cannot start: that first
        if shown is not None:
            check = self.day.check(shown.id)
            level = hinting.report_level(state, self.day, check) if state else 1
            if shown.status is not Status.SKIPPED and check.hints:
                shown = dataclasses.replace(shown, hint=check.hints[level - 1], hint_level=level)
        board.shown = shown
        if state is None:
            return
        if shown is not None and shown.hint_level and shown.status is not Status.SKIPPED:
            state.reveal(self.day.id, shown.id, shown.hint_level)
        state.record_result(self.merged(), lab_sha256=fingerprint if full else None)
        try:
            state.save()
        except OSError as exc:
            board.notices.append(word("cli.could_not_save", path=state.path, why=exc.strerror))

    # ------------------------------------------------------------------ q during a run

    def on_key(self, key: str) -> None:
        """Called by the key reader as a key arrives: q stops a run that is under way (the
        engine stops its children as on Ctrl-C), so quitting never waits for a slow check."""
        if key in QUIT_KEYS and self.running:
            self.quit_asked = True
            os.kill(os.getpid(), signal.SIGINT)
