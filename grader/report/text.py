"""The student-facing terminal report.

    ✓  1 runs        mca starts.
    ✗  2 greets      greet says hello.
         expected: hello Ann
         seen:     NotImplementedError: TODO(E1): greet
         hint: look closer
         more: grader hint day-01 greets

    1/3 passed · bonus 0/1
    next: E1 in mca/greet.py (fixes 1 check)

Colour only when asked (the CLI asks when stdout is a TTY and NO_COLOR is unset);
ASCII marks when the output encoding cannot print ✓ and ✗. With a `width` (the CLI
gives the terminal's) every line is wrapped at spaces to that many columns, counting
East Asian wide characters as two; no word is split (CJK text may break between
characters), and shell commands (`reproduce:`, `more:`) are never wrapped, so they
can be copied whole. Without one, lines are as long as their text.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

from grader.course import Day
from grader.i18n import pad as pad_to, display_width, word
from grader.report.results import CheckResult, DayResult, failure_lines

UNICODE_MARKS = {"passed": "✓", "failed": "✗", "error": "✗", "timeout": "✗", "skipped": "-"}
ASCII_MARKS = {"passed": "+", "failed": "x", "error": "!", "timeout": "x", "skipped": "-"}
COLOURS = {"passed": "32", "failed": "31", "error": "31", "timeout": "31", "skipped": "33"}


def can_encode(encoding: str | None, text: str = "✓✗·") -> bool:
    try:
        text.encode(encoding or "ascii")
        return True
    except (LookupError, UnicodeEncodeError):
        return False


_STUB = re.compile(r"TODO\((E\d+)\)")


def _blamed(check: CheckResult, known: set[str], done: set[str]) -> tuple[str, ...]:
    """The points a failing check asks to work on: the point whose stub raised (its
    `TODO(En)` is in what the check saw), else those of its points that do not look
    finished (a point looks finished when every check mapped to it alone passes), else
    all of its points."""
    raised = [ex for text in (check.seen, check.message, check.expected) if text
              for ex in _STUB.findall(text) if ex in known]
    if raised:
        return tuple(dict.fromkeys(raised))
    open_points = tuple(ex for ex in check.exercises if ex not in done)
    return open_points or check.exercises


def next_exercise(result: DayResult, day: Day) -> tuple[str, str, int] | None:
    """The exercise point whose code is still failing, behind the most failing core checks:
    (id, file, count). A check that rests on several points counts for the one whose stub
    raised, or for those whose own checks do not all pass yet (`_blamed`)."""
    known = {exercise.id for exercise in day.exercises}
    own: dict[str, list[bool]] = {}
    for check in result.checks:
        if len(check.exercises) == 1:
            own.setdefault(check.exercises[0], []).append(check.passed)
    done = {ex for ex, passes in own.items() if all(passes)}
    counts = Counter(ex for check in result.checks if not check.passed
                     for ex in _blamed(check, known, done))
    if not counts:
        return None
    best = max(counts.values())
    for exercise in day.exercises:  # ties: the first in the manifest
        if counts.get(exercise.id) == best:
            return exercise.id, exercise.file, best
    return None


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _pieces(text: str) -> list[tuple[str, bool]]:
    """(piece, preceded by a space) for wrapping: words, with CJK runs split per character."""
    out: list[tuple[str, bool]] = []
    words: list[str] = []
    for word in text.split(" "):   # a size stays whole: "56.0 kB" never breaks between number and unit
        if words and _UNIT.match(word) and _NUMBER.search(words[-1]):
            words[-1] += " " + word
        else:
            words.append(word)
    for word in words:
        if not word:
            continue
        first, current = True, ""
        for char in word:
            if _wide(char):
                if current:
                    out.append((current, first))
                    first = False
                out.append((char, first))
                first, current = False, ""
            else:
                current += char
        if current:
            out.append((current, first))
    return _glue_marks(out)


_NUMBER = re.compile(r"(^|\()\d+(\.\d+)?$")
_UNIT = re.compile(r"^(bytes|kB|MB|GB)\b")
_NO_LINE_START = set("，。、；：？！）》」』】〉”’,.;:?!)]}%…·")   # closing marks stay with what they close
_NO_LINE_END = set("（《「『【〈“‘([{")                           # opening marks with what they open


def _glue_marks(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Pieces that never start a line (a closing mark not after a space) joined to the piece
    before, and a piece ending in an opening mark joined to the piece after."""
    out: list[tuple[str, bool]] = []
    for piece, spaced in pieces:
        if out and not spaced and (piece[0] in _NO_LINE_START or out[-1][0][-1] in _NO_LINE_END):
            out[-1] = (out[-1][0] + piece, out[-1][1])
        else:
            out.append((piece, spaced))
    return out


def wrap(text: str, width: int | None, first: str = "", rest: str = "") -> list[str]:
    """`first + text` wrapped to `width` columns, later lines starting with `rest`."""
    if width is None or display_width(first + text) <= width:
        return [first + text]
    lines: list[str] = []
    line, has_words = first, False
    for piece, spaced in _pieces(text):
        need = display_width(piece) + (1 if spaced and has_words else 0)
        if display_width(line) + need <= width:
            line += (" " if spaced and has_words else "") + piece
            has_words = True
        elif has_words or (line != rest and display_width(rest) + display_width(piece) <= width):
            lines.append(line.rstrip())
            line, has_words = rest + piece, True
        else:                                   # a word wider than the line: never split it
            line += (" " if spaced and has_words else "") + piece
            has_words = True
    lines.append(line.rstrip() if has_words else line)
    return lines


class _Painter:
    def __init__(self, colour: bool):
        self.colour = colour

    def __call__(self, text: str, code: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text


def render_text(result: DayResult, day: Day, *, keep: bool = False, colour: bool = False,
                unicode: bool = True, width: int | None = None) -> str:
    """The report as one string (wrapped to `width` columns when given)."""
    marks = UNICODE_MARKS if unicode else ASCII_MARKS
    paint = _Painter(colour)
    id_width = max((len(c.id) for c in result.all_results()), default=0)
    lines = [paint(line, "1") for line in wrap(word("report.title", day=result.day_id, title=result.title), width, "", "  ")]
    if result.cause:  # the agent never answered: said first, before anything a check found
        lines += [paint(line, COLOURS["failed"]) for line in wrap(result.cause, width, "", "  ")]
    lines += wrap(word("report.lab", lab=result.lab), width, "", "  ")
    if result.seed is not None:
        lines += wrap(word("report.inputs", seed=result.seed, day=result.day_id), width, "", "  ")
    if result.blocked:
        lines += [paint(line, COLOURS["failed"]) for line in wrap(result.blocked, width, "", "  ")]
    lines.append("")
    numbers = check_numbers(day)  # the contract's numbers, even with --only
    rerun = _rerun(result, day)
    # The lab could not start: every check was skipped for that one reason, said once below.
    folded = bool(result.blocked) and all(c.status.value == "skipped" for c in result.all_results())
    for position, check in enumerate(result.checks, 1):
        number = f"{numbers.get(check.id, position):>2}"
        lines += _check_lines(check, number, id_width, marks, paint, result.day_id, keep, width, rerun, folded)
    if result.bonus:
        lines += ["", word("report.bonus_heading")]
        for check in result.bonus:
            lines += _check_lines(check, " *", id_width, marks, paint, result.day_id, keep, width, rerun, folded)
    if folded and result.all_results():
        lines += [""] + wrap(word("report.all_skipped", count=len(result.all_results())), width, "", "  ")
    summary = word("report.passed", passed=result.passed, total=result.total)
    summary = paint(summary, COLOURS["passed" if result.all_core_passed else "failed"])
    if result.bonus_total:
        summary += word("report.bonus", passed=result.bonus_passed, total=result.bonus_total)
    lines += ["", summary]
    nxt = next_exercise(result, day)
    where = _STARTUP_ERROR.search(result.blocked or "")
    if result.blocked and where:
        lines += wrap(word("report.next_fix", file=where["file"], line=where["line"]), width, "", "  ")
    elif nxt and not result.blocked and not result.cause:  # no exercise point fixes an agent that never answers
        ex_id, file, count = nxt
        lines += wrap(word("report.next_one" if count == 1 else "report.next_many", exercise=ex_id, file=file,
                           count=count), width, "", "  ")
    if keep and result.run_root:
        lines += wrap(word("report.kept", path=result.run_root), width, "", "  ")
    return "\n".join(lines) + "\n"


def check_numbers(day: Day) -> dict[str, int]:
    """{check id: its number in the report}: core checks 1, 2, ... in course.toml order."""
    return {c.id: n for n, c in enumerate(day.checks_core, 1)}


def check_head(check_id: str, title: str, status: str, number: str, id_width: int, marks,
               paint=None, width: int | None = None) -> list[str]:
    """A check's first line(s): mark, number, id, title."""
    prefix = f" {marks[status]} {number} {check_id:<{id_width}}  "
    lines = wrap(title, width, prefix, " " * 7)
    if paint is not None and paint.colour:
        lines[0] = f" {paint(marks[status], COLOURS[status])}" + lines[0][2:]
    return lines


def _rerun(result: DayResult, day: Day):
    """The grader command that reruns one check with the same inputs and keeps its directories."""
    lab = ""
    try:
        if Path(result.lab).resolve() != Path(day.lab).resolve():
            lab = f" --lab {result.lab}"
    except OSError:
        pass
    seed = f" --seed {result.seed}" if result.seed is not None else ""
    return lambda check_id: f"grader check {result.day_id} --only {check_id}{seed}{lab} --keep"


def _check_lines(check: CheckResult, number: str, id_width: int, marks, paint, day_id: str, keep: bool,
                 width: int | None = None, rerun=None, folded: bool = False) -> list[str]:
    lines = check_head(check.id, check.title, check.status.value, number, id_width, marks, paint, width)
    return lines if folded else lines + detail_lines(check, day_id, keep=keep, width=width, rerun=rerun)


# "(mca/chat.py, line 37)" in why the lab could not start: where to look first
_STARTUP_ERROR = re.compile(r"\((?P<file>[^(),]+\.py), line (?P<line>\d+)")


def detail_lines(check: CheckResult, day_id: str, *, keep: bool = False, width: int | None = None, rerun=None,
                 pad: str = " " * 7) -> list[str]:
    """What the report prints under a check's head: for one that did not pass, its message,
    `first:`, expected and seen, the hint and how to see more (and with `keep` how to
    reproduce it); nothing for one that passed. `grader watch` shows one such block."""
    status = check.status.value
    lines: list[str] = []
    # expected/seen labels padded alike, in columns (a CJK character takes two)
    aligned = max(display_width(word("label.expected")), display_width(word("label.seen")))
    for label, text in failure_lines(check):
        if label == "message":
            prefix = "" if status == "failed" else word(f"label.{status}")
            shown = text.splitlines() if not (check.expected or check.seen) or status != "failed" else text.splitlines()[:1]
            for i, part in enumerate(shown):
                lead = pad + (prefix if i == 0 else " " * display_width(prefix))
                lines += wrap(part, width, lead, pad + " " * display_width(prefix))
        elif label in ("expected", "seen"):
            lines += _labelled(pad + pad_to(word(f"label.{label}"), aligned), text, width)
        else:
            lines += _labelled(pad + word(f"label.{label}"), text, width)
            if label == "hint" and check.hint_level < check.hint_levels:
                lines.append(pad + word("report.more", day=day_id, check=check.id))
    if keep and not check.passed:
        commands = check.repro or ((rerun(check.id),) if rerun else ())
        for command in commands:
            lines.append(pad + word("report.reproduce", command=command))
    return lines


def _labelled(lead: str, text: str, width: int | None) -> list[str]:
    """`lead + text` wrapped, later lines aligned under the text (or the label if that leaves too little)."""
    if width is None:
        return [lead + text]   # as the text is, line breaks included
    rest = " " * display_width(lead) if width - display_width(lead) >= 20 else " " * 9
    out = []
    for i, part in enumerate(text.splitlines() or [""]):
        out += wrap(part, width, lead if i == 0 else rest, rest)
    return out
