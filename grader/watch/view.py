"""What `grader watch` shows: one line per check, the score, the next hint.

    day-01 · watching labs/day-01-repl-gateway · seed 2871
    run 3 · mca/chat.py changed (E1, E2): 4 of 12 checks re-run · 0.9 s

       ✓  1 one-shot            `python -m mca PROMPT` with the mock prints ...
     ▸ ✗  3 history-carried     Every turn's request starts with a system ...
     ...
    3/10 passed   bonus 0/2

    next: history-carried
           expected: ...
           hint: Put a print of the list Chat.ask hands to the gateway ...
           more: grader hint day-01 history-carried

    ▸ re-run now; the other lines are kept from earlier runs
    a or Enter: re-run every check · q: quit

On a terminal the whole view is redrawn in place (cursor home, each line cleared,
the rest of the screen cleared): no scrollback fills up. Elsewhere (a pipe, a file,
TERM=dumb) each run prints one block: its `run` line when it starts, the rest when
it ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.course import Day
from grader.i18n import char_width, display_width, word
from grader.report.text import (ASCII_MARKS, COLOURS, UNICODE_MARKS, _Painter, check_numbers, detail_lines,
                                wrap)
from grader.report.results import CheckResult
from grader.watch.plan import Plan

FRESH = {True: "▸", False: ">"}      # unicode, ascii
RUNNING = {True: "…", False: "."}


@dataclass
class Board:
    """Everything the screen shows, kept by the watch loop between runs."""

    day: Day
    lab: str
    seed: int
    results: dict[str, CheckResult] = field(default_factory=dict)  # the latest of each check
    fresh: set[str] = field(default_factory=set)       # re-run by the latest run (partial runs only)
    pending: set[str] = field(default_factory=set)     # running now, not finished yet
    live: dict[str, str] = field(default_factory=dict) # finished in the run under way: its status
    run: int = 0
    plan: Plan | None = None
    running: bool = False
    seconds: float | None = None
    shown: CheckResult | None = None                   # the check whose hint is shown
    blocked: str | None = None                         # why the lab could not start, if so
    cause: str | None = None                           # why the agent answered no check (never answers), if so
    notices: list[str] = field(default_factory=list)   # what the latest run has to say (a blocked lab ...)
    note: str | None = None                            # since then: a save that changed nothing ...
    keys: bool = False                                 # the terminal takes keys

    def next_check(self) -> CheckResult | None:
        """The first core check that did not pass, else the first such bonus check."""
        ordered = [self.results[c.id] for c in self.day.all_checks if c.id in self.results]
        failing = [r for r in ordered if not r.passed]
        return next((r for r in failing if not r.bonus), failing[0] if failing else None)


def _files(files) -> str:
    shown = ", ".join(files[:3])
    return shown + (f" (+{len(files) - 3})" if len(files) > 3 else "")


def why(board: Board) -> str:
    plan = board.plan
    if plan is None:
        return ""
    if plan.is_full:
        if plan.everything == "provided":
            return word("watch.why_provided", files=_files(plan.provided))
        return word(f"watch.why_{plan.everything}")
    return word("watch.why_points", files=_files(plan.files), points=", ".join(plan.points),
                count=len(plan.checks), total=len(board.day.all_checks))


def run_line(board: Board) -> str:
    if board.running:
        return word("watch.run_running", run=board.run, why=why(board))
    return word("watch.run_done", run=board.run, why=why(board), seconds=f"{board.seconds or 0:.1f}")


def head_line(board: Board) -> str:
    return word("watch.head", day=board.day.id, lab=board.lab, seed=board.seed)


def _fit(text: str, width: int | None, unicode: bool) -> str:
    """One terminal row: cut (with …) rather than let the terminal wrap it."""
    if width is None or display_width(text) <= width - 1:
        return text
    used, end = 0, 0
    for end, char in enumerate(text):
        used += char_width(char)
        if used > width - 2:
            break
    return text[:end] + ("…" if unicode else ".")


def check_lines(board: Board, *, width: int | None, unicode: bool, paint: _Painter) -> list[str]:
    marks = UNICODE_MARKS if unicode else ASCII_MARKS
    numbers = check_numbers(board.day)
    id_width = max((len(c.id) for c in board.day.all_checks), default=0)
    partial = board.plan is not None and not board.plan.is_full and bool(board.fresh or board.pending or board.live)
    lines = []
    for check in board.day.all_checks:
        result = board.results.get(check.id)
        if check.id in board.pending:
            mark, colour = RUNNING[unicode], "33"
        elif check.id in board.live:
            mark, colour = marks[board.live[check.id]], COLOURS[board.live[check.id]]
        elif result is None:
            mark, colour = " ", ""
        else:
            mark, colour = marks[result.status.value], COLOURS[result.status.value]
        number = " *" if check.bonus else f"{numbers.get(check.id, 0):>2}"
        now = check.id in board.fresh or check.id in board.pending or check.id in board.live
        fresh = FRESH[unicode] if partial and now else " "
        line = _fit(f"{fresh} {mark} {number} {check.id:<{id_width}}  {check.title}", width, unicode)
        if paint.colour:
            kept = partial and fresh == " "
            body = line[len(f"{fresh} {mark}"):]
            line = (paint(fresh, "1") + " " + (paint(mark, colour) if colour else mark)
                    + (paint(body, "2") if kept else body))
        lines.append(line)
    return lines


def score_line(board: Board, paint: _Painter) -> str:
    core = [board.results[c.id] for c in board.day.checks_core if c.id in board.results]
    bonus = [board.results[c.id] for c in board.day.checks_bonus if c.id in board.results]
    passed = sum(1 for r in core if r.passed)
    text = paint(word("report.passed", passed=passed, total=len(board.day.checks_core)),
                 COLOURS["passed" if passed == len(board.day.checks_core) else "failed"])
    if board.day.checks_bonus:
        text += word("report.bonus", passed=sum(1 for r in bonus if r.passed), total=len(board.day.checks_bonus))
    return text


def hint_lines(board: Board, *, width: int | None, paint: _Painter) -> list[str]:
    if board.blocked or board.cause:  # one cause before any check's hint: no exercise point fixes it
        return [paint(line, COLOURS["failed"]) for line in wrap(board.blocked or board.cause, width, "", "  ")]
    shown = board.shown
    if shown is None:
        return [word("watch.all_passed")] if board.results and not board.running else []
    return [word("watch.next", check=shown.id), *detail_lines(shown, board.day.id, width=width)]


def render(board: Board, *, width: int | None = None, height: int | None = None, unicode: bool = True,
           colour: bool = False, plain: bool = False) -> list[str]:
    """The whole view as lines. `plain`: the block of one finished run (no session head)."""
    paint = _Painter(colour)
    top = [] if plain else [paint(_fit(head_line(board), width, unicode), "1")]
    if board.run and not plain:   # a plain block's run line was printed when the run started
        top += wrap(run_line(board), width, "", "  ")
    rows = check_lines(board, width=width, unicode=unicode, paint=paint)
    middle = ["", score_line(board, paint)] if board.results else []
    hint = hint_lines(board, width=width, paint=paint)
    notes = []
    for notice in [*board.notices, *([board.note] if board.note and not plain else [])]:
        notes += wrap(notice, width, "", "  ")
    legend = []
    if (board.fresh and set(board.results) - board.fresh and not board.running and board.plan
            and not board.plan.is_full):   # the legend only when some line really is kept
        legend = wrap(word("watch.fresh", mark=FRESH[unicode]), width, "", "  ")
    last = []
    if plain and board.run and board.seconds is not None:
        last.append(word("watch.took", run=board.run, seconds=f"{board.seconds:.1f}"))
    last.append(word("watch.keys") if board.keys else word("watch.waiting"))
    gap = [""]
    if height is not None:
        # A short terminal: the hint gives way first, then the blank lines, then the legend;
        # the check lines, the score and the keys stay.
        limit = height - 1           # the last row stays free: writing there would scroll
        fixed = len(top) + len(rows) + len(middle) + len(notes) + len(legend) + len(last)
        room = limit - fixed - 3     # three blank lines: under the head, above the hint, above the keys
        hint = hint[:room] if room >= 2 else []
        if not hint and fixed + 2 > limit:
            gap, middle = [], middle[1:]
            if len(top) + len(rows) + len(middle) + len(notes) + len(legend) + len(last) > limit:
                legend = []
    body = rows + middle + ((gap + hint) if hint else [])
    return top + ([] if plain else gap) + body + gap + notes + legend + last


def plain_run_line(board: Board) -> str:
    return "── " + run_line(board)


class Screen:
    """Draws a Board on a terminal (in place) or as plain blocks."""

    def __init__(self, stream, *, tty: bool, unicode: bool, colour: bool, size=None):
        self.stream = stream
        self.tty = tty
        self.unicode = unicode
        self.colour = colour
        self.size = size        # () -> (columns, rows), on a terminal
        self.drawn = False
        self.resized = False    # set on SIGWINCH: the next draw clears the whole screen

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):   # the terminal went away: nothing left to show
            pass

    def start(self, board: Board) -> None:
        if self.tty:
            self._write("\033[?25l")   # no blinking cursor in the middle of the view
        else:
            self._write(head_line(board) + "\n")

    def run_started(self, board: Board) -> None:
        if self.tty:
            self.draw(board)
        else:
            self._write("\n" + plain_run_line(board) + "\n")

    def check_done(self, board: Board) -> None:
        if self.tty:
            self.draw(board)

    def run_ended(self, board: Board) -> None:
        if self.tty:
            self.draw(board)
        else:
            width = self.size()[0] if self.size else None
            lines = render(board, width=width, unicode=self.unicode, colour=False, plain=True)
            self._write("\n".join(lines) + "\n")

    def idle(self, board: Board) -> None:
        """Nothing happened for a while: redraw if the window changed size meanwhile."""
        if self.tty and self.resized:
            self.draw(board)

    def notice(self, board: Board, text: str) -> None:
        """A message that is no run of its own (a save that changed nothing, a lab that is not one)."""
        if self.tty:
            self.draw(board)
        else:
            self._write(text + "\n")

    def draw(self, board: Board) -> None:
        columns, rows = self.size() if self.size else (80, 24)
        lines = render(board, width=columns, height=rows, unicode=self.unicode, colour=self.colour)
        home = "\033[H" if self.drawn and not self.resized else "\033[H\033[2J"
        self.drawn, self.resized = True, False
        self._write(home + "".join(line + "\033[K\n" for line in lines[:max(rows - 1, 1)]) + "\033[J")

    def say(self, text: str) -> None:
        """One line after the view (the view stays as it is)."""
        self._write(text + "\n")

    def close(self) -> None:
        if self.tty:
            self._write("\033[?25h")
