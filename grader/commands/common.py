"""What every command of the CLI shares: exit codes, the course and day it works on,
refusals as one line on stderr (`fail`), the lab's progress file, the terminal's width,
and the integrity guards around a run of student code."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Optional

import typer

from grader import i18n
from grader.course import Course, CourseError, Day, find_course, load_course
from grader.i18n import help_word, word
from grader.lab.state import State
from grader.report.text import wrap

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TAMPERED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DAY_HELP = help_word("help.day")


class Options:
    """The grader's own options (the app's callback sets them before any command runs)."""
    course_path: Optional[Path] = None
    # The grader runs as a process of its own (the console script, `python -m grader`), not as
    # a library inside another program (a test suite's CliRunner): only then may it become
    # the subreaper of its descendants and kill the orphans it adopts (grader/spawn/groups.py),
    # since every other child of such a host would count as one.
    own_process: bool = False


options = Options()


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print `message` to stderr and return the Exit to raise."""
    typer.echo(word("cli.prefix", message=message), err=True)
    return typer.Exit(code)


def require_cwd() -> None:
    """Refuse, in one line, to run from a directory that no longer exists (the shell still
    stands in it after it was deleted or replaced): paths and children would break later."""
    try:
        os.getcwd()
    except FileNotFoundError:
        shell = os.environ.get("PWD")
        raise fail(word("cli.cwd_gone", shell=shell) if shell else word("cli.cwd_gone_unknown")) from None


def load(localised: bool = True) -> Course:
    """The course; as students read it (titles and hints in the chosen language) unless not `localised`."""
    require_cwd()
    try:
        course = load_course(find_course(options.course_path))
    except CourseError as exc:
        raise fail(str(exc)) from None
    return i18n.localise(course) if localised else course


def day_or_here(course: Course, text: str | None, command: str) -> Day:
    """The day named, else the day whose lab the shell stands in; without either, say how
    to name one (never typer's bare "Missing argument")."""
    if text is not None:
        return find_day(course, text)
    here = course.day_at(Path.cwd())
    if here is None:
        example = course.days[0].id if course.days else "day-01"
        raise fail(word("cli.no_day", command=command, example=example))
    return here


def find_day(course: Course, text: str) -> Day:
    try:
        return course.find_day(text)
    except CourseError:
        raise fail(word("cli.unknown_day", day=text, known=", ".join(d.id for d in course.days)
                        or word("cli.no_days"))) from None


def load_state(course: Course) -> State:
    state = State.load(course.root)
    for warning in state.warnings:
        typer.echo(warning, err=True)
    return state


def save_state(state: State) -> None:
    try:
        state.save()
    except OSError as exc:  # progress is a convenience: never fail a check run over it
        typer.echo(word("cli.could_not_save", path=state.path, why=exc.strerror), err=True)


def echo_wrapped(text: str, first: str = "", rest: str = "") -> None:
    """`first + text` wrapped to the terminal, later lines starting with `rest` (paths and
    commands stay whole); as it is when stdout is not a terminal."""
    for line in wrap(text, report_width(), first, rest):
        typer.echo(line)


def use_colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def is_terminal() -> bool:
    """stdout is a terminal that can take a cursor move (not a pipe, a file or TERM=dumb)."""
    try:
        return sys.stdout.isatty() and os.environ.get("TERM", "") != "dumb"
    except (AttributeError, ValueError):
        return False


def report_width() -> int | None:
    """Columns to wrap the text report to: the terminal's, or $COLUMNS; None (no wrapping,
    as before) when stdout is not a terminal and COLUMNS is not set."""
    if not is_terminal() and not os.environ.get("COLUMNS"):
        return None
    return max(shutil.get_terminal_size().columns, 20)



def guarded_call(fn, *args, **kwargs):
    """Run a backups/scaffold operation, turning its refusals into exit 2 with the message."""
    from grader.lab.backups import BackupError
    from grader.scaffold import ERRORS
    try:
        return fn(*args, **kwargs)
    except (BackupError, *ERRORS, CourseError) as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(word("cli.os_error", file=exc.filename or "", why=exc.strerror)) from None


def refuse_if_tampered(course: Course) -> None:
    from grader import integrity
    problems = integrity.tampered(course.root)
    if problems:
        listed = ", ".join(map(str, problems[:5])) + (" ..." if len(problems) > 5 else "")
        raise fail(word("cli.ci_tampered", count=len(problems), files=listed), EXIT_TAMPERED)


def report_changes_during_run(course: Course, before: dict[str, str], ci: bool) -> None:
    """The grader's files after a run: a lab's code runs as the same user and may have written there.

    The run itself held (its checks module was loaded and its fixtures copied before any
    student code ran), but the next run would not: in --ci mode that is tamper (exit 3,
    no report, since the kit under us is no longer the one shipped); otherwise a warning.
    """
    from grader import integrity
    after = integrity.current(course.root)
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    if not changed:
        return
    listed = ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else "")
    if ci:
        raise fail(word("cli.ci_changed", count=len(changed), files=listed), EXIT_TAMPERED)
    typer.echo(word("cli.changed", count=len(changed), files=listed), err=True)

