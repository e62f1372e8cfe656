"""`grader verify`: the instructor's proof that the kit is gradable (grader/verify/),
with one progress line on a terminal."""

from __future__ import annotations

import shutil
import sys
from typing import Annotated, Optional

import typer

from grader.commands.common import EXIT_FAILED, EXIT_OK, fail, find_day, guarded_call, is_terminal, load, report_width
from grader.i18n import display_width, help_word, word


def register(app: typer.Typer) -> None:
    app.command(help=help_word("help.verify"))(verify)


class _Progress:
    """`grader verify`'s progress on a terminal: one line rewritten in place as each grading
    run is judged (a day's runs take minutes), erased before the table. Off when stdout is
    not a terminal: then the output is exactly the table."""

    def __init__(self):
        self.active = is_terminal()
        self.width = max(shutil.get_terminal_size().columns, 20)
        self.shown = False
        if self.active:
            self._write(word("verify.starting"))

    def _write(self, line: str) -> None:
        while line and display_width(line) > self.width - 1:
            line = line[:-1]
        sys.stdout.write("\r" + line + "\033[K")
        sys.stdout.flush()
        self.shown = True

    def show(self, day_id: str, graded: int, runs: int, days_done: int, days: int) -> None:
        self._write(word("verify.progress", day=day_id, graded=graded, runs=runs, done=days_done, days=days))

    def clear(self) -> None:
        if self.active and self.shown:
            sys.stdout.write("\r\033[K")
            sys.stdout.flush()
            self.shown = False


def verify(
    day: Annotated[Optional[list[str]], typer.Argument(metavar="DAY...", help=help_word("help.verify_days"))] = None,
    student: Annotated[bool, typer.Option("--student", help=help_word("help.verify_student"))] = False,
) -> None:
    """Prove the kit is gradable: solutions pass, labs score their scaffold count, mappings are exact."""
    from grader.verify import render_table, verify as run_verify, verify_student
    course = load(localised=False)  # verify holds course.toml's titles to the checks' docstrings
    days = list(dict.fromkeys(find_day(course, one).id for one in day)) if day else None
    if not student and course.is_student_edition:
        raise fail(word("edition.no_verify"))
    live = _Progress()
    try:
        report = guarded_call(verify_student if student else run_verify, course, days,
                              progress=live.show if live.active else None)
    finally:
        live.clear()
    typer.echo(render_table(report, localised=student, width=report_width()), nl=False)
    raise typer.Exit(EXIT_OK if report.ok else EXIT_FAILED)

