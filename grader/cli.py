"""The `grader` command line: thin commands over result objects and renderers.

Exit codes: 0 every core check passed (or the command did its job); 1 some core
check did not pass; 2 a usage or infrastructure problem (unknown day, missing lab,
broken course.toml, checks not available), printed to stderr without a traceback;
3 (`check --ci`) the grader's files or course.toml differ from the shipped record,
before the run or after it (a lab's code runs as the same user and could write there);
130 interrupted with Ctrl-C (the message says what, if anything, was changed).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from grader import hints as hinting
from grader import i18n
from grader.i18n import word
from grader.course import Course, CourseError, Day, find_course, load_course
from grader.engine import EngineError, Interrupted, not_a_lab, run_day
from grader.report import github, gradescope, junit
from grader.report.json import render_json
from grader.report.text import (ASCII_MARKS, UNICODE_MARKS, _Painter, can_encode, check_head, check_numbers,
                                display_width, render_text, wrap)
from grader.state import State


def _tidy_help() -> None:
    """Help without raw type placeholders. Some typer versions print one after every
    parameter (`--json <bool>`, `--only <list[str]>`, `day <str>`) and put braces round
    a required argument in the usage line (`{day}`): flags get none here, options and
    arguments their metavar (DAY, CHECK, DIR ...). Versions without these hooks print
    click's plain help, which has no placeholders to hide."""
    from typer import core

    base = getattr(core, "_TyperParameter", None)
    if base is None or not hasattr(base, "display_type_rich") or getattr(base, "_grader_tidy", False):
        return
    plain = base.display_type_rich
    option_plain = getattr(core.TyperOption, "display_type_rich", plain)

    def parameter_type(self, ctx):
        return None  # an argument's name (its metavar) says what it is

    def option_type(self, ctx):
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        return self.metavar if self.metavar is not None else option_plain(self, ctx)

    core.TyperArgument.display_type_rich = parameter_type
    core.TyperOption.display_type_rich = option_type
    if hasattr(core.TyperArgument, "_usage_display_name"):
        def usage_name(self):
            name = self.display_name_raw
            name = name if self.required else f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")
        core.TyperArgument._usage_display_name = usage_name
    base._grader_tidy = True


_tidy_help()

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=i18n.language_group(),
                  help="Grade the labs of agent-lab: check your work, get hints, see your progress.")

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TAMPERED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DAY_HELP = "day-07, 07, 7 or the day's slug"


class _Options:
    course_path: Optional[Path] = None


_options = _Options()


@app.callback()
def _main(course: Annotated[Optional[Path], typer.Option(
        "--course", metavar="PATH",
        help="course.toml (or its directory); default: $GRADER_COURSE, then search upward.")] = None,
          lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="zh|en",
        help="zh or en; default: $GRADER_LANG, then the locale (LC_ALL, LC_MESSAGES, LANG), then en.")] = None
          ) -> None:
    """Grade the labs of agent-lab."""
    _options.course_path = course
    try:
        i18n.set_language(lang)  # every run chooses afresh (None: from the environment)
    except ValueError:
        i18n.set_language(None)
        raise fail(word("cli.unknown_language", lang=lang)) from None


# --------------------------------------------------------------------------- helpers

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
        where = f" ({shell})" if shell else ""
        back = f"`cd {shell}`" if shell else "`cd` into the lab again"
        raise fail(f"your current directory{where} no longer exists (it was deleted or replaced "
                   f"while your shell stood in it). Fix: {back} to enter the directory now at that "
                   "path, then run the command again.") from None


def load(localised: bool = True) -> Course:
    """The course; as students read it (titles and hints in the chosen language) unless not `localised`."""
    require_cwd()
    try:
        course = load_course(find_course(_options.course_path))
    except CourseError as exc:
        raise fail(str(exc)) from None
    return i18n.localise(course) if localised else course


def find_day(course: Course, text: str) -> Day:
    try:
        return course.find_day(text)
    except CourseError:
        raise fail(word("cli.unknown_day", day=text, known=", ".join(d.id for d in course.days) or "(none)")) from None


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


# --------------------------------------------------------------------------- student commands

def _render_text(result, day: Day, keep: bool) -> str:
    return render_text(result, day, keep=keep, colour=use_colour(), unicode=can_encode(sys.stdout.encoding),
                       width=report_width())


def _render_json(result, day: Day, keep: bool) -> str:
    return render_json(result)


# How `check` prints its result on stdout; files (JUnit, Gradescope) are written besides.
RENDERERS = {"text": _render_text, "json": _render_json}


@app.command()
def check(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    lab: Annotated[Optional[Path], typer.Option(
        metavar="DIR", help="lab directory to grade (default: the day's lab); your progress and hint "
        "levels are kept only for the day's own lab")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON only")] = False,
    junit_path: Annotated[Optional[Path], typer.Option("--junit", metavar="PATH",
                                                       help="also write JUnit XML here")] = None,
    gradescope_path: Annotated[Optional[Path], typer.Option(
        "--gradescope", metavar="PATH", help="also write a Gradescope results.json here")] = None,
    keep: Annotated[bool, typer.Option("--keep", help="keep scratch directories and print, for each "
                                       "failing check, the commands that reproduce it")] = False,
    only: Annotated[Optional[list[str]], typer.Option(
        metavar="CHECK", help="run only this check id (repeatable)")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", help="generate the checks' inputs from this seed (the report prints the seed of every run)")] = None,
    ci: Annotated[bool, typer.Option("--ci", help="CI mode: refuse to run (exit 3) if the checks or "
                                     "course.toml differ from the shipped ones; keep no progress state")] = False,
) -> None:
    """Run a day's checks against your lab and report what passes (exit 0: every core check passed)."""
    course = load()
    the_day = find_day(course, day)
    from grader import integrity, trees
    if ci:
        _refuse_if_tampered(course)
    target = (lab or the_day.lab).expanduser()
    # Progress and hint levels belong to the student's own lab: grading another directory
    # (a classmate's submission, a solution) must not move them, nor even read them.
    own_lab = not ci and target.resolve() == Path(the_day.lab).resolve()
    if target.is_dir():
        problem = not_a_lab(course, the_day, target)
        if problem:
            if own_lab:
                fix = f"`grader reset {the_day.id}` brings back the untouched lab (what is there now is backed up first)"
            else:
                fix = (f"pass a {the_day.id} lab: a directory made from {the_day.lab}, with its "
                       f"{course.agent.package}/ package and the day's exercise files")
            raise fail(f"not a {the_day.id} lab: {problem}. Fix: {fix}.")
    state = load_state(course) if own_lab else None
    guarded = integrity.current(course.root)
    live = _LiveLines(the_day, as_json, len(only) if only else len(the_day.all_checks))
    fingerprint = trees.fingerprint(target, course.runtime_dirs) if own_lab and target.is_dir() else None
    try:
        result = run_day(course, the_day, target, keep=keep, select=only or None, seed=seed,
                         hint_levels=hinting.report_levels(state, the_day) if own_lab else None,
                         on_check=live.done if live.active else None)
    except EngineError as exc:
        live.clear()
        raise fail(str(exc)) from None
    except Interrupted as exc:
        live.clear()
        kept = f"; scratch directories kept in {exc.kept}" if exc.kept else ""
        raise fail(f"interrupted: nothing was changed (your lab, progress and hints are as they were){kept}",
                   EXIT_INTERRUPTED) from None
    live.clear()
    _report_changes_during_run(course, guarded, ci)
    if own_lab:
        hinting.mark_shown(state, the_day, result)
        if not only:
            state.record_result(result, lab_sha256=fingerprint)
        save_state(state)

    typer.echo(RENDERERS["json" if as_json else "text"](result, the_day, keep), nl=False)
    if as_json and keep and result.run_root:
        typer.echo(word("cli.kept", path=result.run_root), err=True)
    if junit_path:
        junit.write_junit(result, junit_path)
    if gradescope_path:
        gradescope.write_gradescope(result, gradescope_path)
    if github.active():
        github.emit(result, lambda line: typer.echo(line, err=as_json),
                    files=github.exercise_files(the_day, target))
    raise typer.Exit(EXIT_OK if result.all_core_passed else EXIT_FAILED)


class _LiveLines:
    """On a terminal, each check's line as it finishes (the run takes seconds); they are
    erased before the report, which repeats them with the details. Off for --json and
    whenever stdout is not a terminal: then the output is exactly the report."""

    def __init__(self, day: Day, as_json: bool, count: int):
        self.active = not as_json and is_terminal()
        self.day = day
        self.rows = 0
        self.stream = sys.stdout
        self.numbers = check_numbers(day)
        self.titles = {c.id: c for c in day.all_checks}
        self.id_width = max((len(c.id) for c in day.all_checks), default=0)
        self.marks = UNICODE_MARKS if can_encode(getattr(sys.stdout, "encoding", None)) else ASCII_MARKS
        self.paint = _Painter(use_colour())
        self.width = max(shutil.get_terminal_size().columns, 20)
        if self.active:
            self._write(f"{day.id}: running {count} check{'s' if count != 1 else ''} ...")

    def _write(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
        self.rows += 1

    def done(self, check_id: str, status) -> None:
        check = self.titles.get(check_id)
        if check is None:
            return
        number = " *" if check.bonus else f"{self.numbers.get(check_id, 0):>2}"
        head = check_head(check_id, check.title, str(status), number, self.id_width, self.marks)[0]
        if display_width(head) > self.width - 1:    # one terminal row each, so clear() knows how many
            while head and display_width(head) > self.width - 2:
                head = head[:-1]
            head += "…" if self.marks is UNICODE_MARKS else "."
        if self.paint.colour:
            head = f" {self.paint(self.marks[str(status)], '32' if str(status) == 'passed' else '31')}" + head[2:]
        self._write(head)

    def clear(self) -> None:
        if self.active and self.rows:
            self.stream.write(f"\r\033[{self.rows}A\033[J")   # up to the first live line, clear below
            self.stream.flush()
            self.rows = 0


def _refuse_if_tampered(course: Course) -> None:
    from grader import integrity
    problems = integrity.tampered(course.root)
    if problems:
        listed = ", ".join(map(str, problems[:5])) + (" ..." if len(problems) > 5 else "")
        raise fail(word("cli.ci_tampered", count=len(problems), files=listed), EXIT_TAMPERED)


def _report_changes_during_run(course: Course, before: dict[str, str], ci: bool) -> None:
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


@app.command()
def hint(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    check_id: Annotated[Optional[str], typer.Argument(
        metavar="CHECK", help="a check id, its number in the report (7) or an exercise point (E3: its "
        "checks); shows that check's next hint. Without it: the hint each failing core check is at")] = None,
    next_level: Annotated[bool, typer.Option(
        "--next", help="show the next hint (the default when CHECK is given; without CHECK: of the "
        "first failing core check)")] = False,
) -> None:
    """Show the hints you have reached; name a CHECK to see its next one.

    `grader hint DAY` shows each failing core check's current hint and moves nothing. `grader hint DAY CHECK` (or `--next`) shows the next hint of that one check and remembers it. Bonus checks' hints only when named.
    """  # noqa: E501 (one paragraph: help wraps it to the terminal)
    course = load()
    the_day = find_day(course, day)
    state = load_state(course)
    if check_id is None and not next_level:
        _current_hints(state, the_day)
        raise typer.Exit(EXIT_OK)
    if check_id is not None:
        try:
            checks = hinting.resolve(state, the_day, check_id)
        except KeyError as exc:
            raise fail(exc.args[0]) from None
    else:
        failing = [c for c in hinting.checks_for_hint(state, the_day) if not c.bonus]
        if not failing:
            typer.echo(f"Every core check of {the_day.id} passed in the last run: no hint needed. "
                       f"Name a check to read its hints anyway: grader hint {the_day.id} CHECK")
            raise typer.Exit(EXIT_OK)
        checks = failing[:1]
    blocks = [_hint_text(the_day, hinting.reveal_next(state, the_day, one)) for one in checks]
    save_state(state)
    typer.echo("\n".join(blocks), nl=False)


def _hint_text(day: Day, shown: hinting.HintShown) -> str:
    head = word("hint.head", check=shown.check_id, level=shown.level, total=shown.total)
    if shown.already_all:
        head += word("hint.all_shown")
    lines = [head, *wrap(shown.text, report_width(), "  ", "  ")]
    if shown.more:
        lines.append(word("hint.more", day=day.id, check=shown.check_id))
    return "\n".join(lines) + "\n"


def _current_hints(state: State, day: Day) -> None:
    """Each failing core check at the hint it is at (level 1 if never seen); moves nothing."""
    failing = hinting.checks_for_hint(state, day)
    core = [c for c in failing if not c.bonus]
    bonus = [c for c in failing if c.bonus] if state.last(day.id) is not None else []
    numbers = check_numbers(day)
    if state.last(day.id) is None:
        typer.echo(f"{day.id} has not been checked yet (grader check {day.id}); the first hint of each core check:\n")
    elif not core:
        typer.echo(f"Every core check of {day.id} passed in the last run: no hint needed.")
    blocks = []
    for one in core:
        shown = hinting.current(state, day, one)
        head = f"{numbers[one.id]:>2} {shown.check_id} (hint {shown.level} of {shown.total})"
        lines = [head, *wrap(shown.text, report_width(), "   ", "   ")]
        if shown.more:
            lines.append(f"   next hint: grader hint {day.id} {shown.check_id}")
        blocks.append("\n".join(lines) + "\n")
    width = report_width()
    if blocks:
        typer.echo("\n".join(blocks), nl=False)
        typer.echo("")
        for line in wrap(f"These are the hints you have reached; nothing was moved. The next hint of one "
                         f"check: grader hint {day.id} CHECK (its id, its number, or an exercise point like "
                         f"{day.exercises[0].id if day.exercises else 'E1'}).", width):
            typer.echo(line)
    if bonus:
        names = ", ".join(c.id for c in bonus)
        for line in wrap(f"Bonus checks that did not pass: {names}; their hints only when named "
                         f"(grader hint {day.id} {bonus[0].id}).", width):
            typer.echo(line)


@app.command("list")
def list_days() -> None:
    """List the days of the course and your last result for each."""
    course = load()
    state = load_state(course)
    width = max((len(day.id) for day in course.days), default=0)
    typer.echo(f"{course.title} ({course.name})")
    for day in course.days:
        last = state.last(day.id)
        if last:
            status = word("list.last", passed=last.get("passed"), total=last.get("total"), when=last.get("when"))
        else:
            status = word("list.never")
        typer.echo(f"  {day.id:<{width}}  {day.title}  [{status}]")


# --------------------------------------------------------------------------- lab and instructor commands

def _backup_call(fn, *args, **kwargs):
    """Run a backups/scaffold operation, turning its refusals into exit 2 with the message."""
    from grader.backups import BackupError
    from grader.scaffold import ERRORS
    try:
        return fn(*args, **kwargs)
    except (BackupError, *ERRORS, CourseError) as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(word("cli.os_error", file=exc.filename or "", why=exc.strerror)) from None


@app.command()
def reset(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help=DAY_HELP)] = None,
    all_days: Annotated[bool, typer.Option("--all", help="reset every day's lab")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")] = False,
) -> None:
    """Put a lab back to its untouched state, in place; your current lab is backed up first."""
    from grader import backups
    course = load()
    if all_days == (day is not None):
        raise fail(word("cli.reset_one_or_all"))
    days = course.days if all_days else [find_day(course, day)]
    plans = [_backup_call(backups.plan_reset, course, one) for one in days]
    for plan in plans:
        if plan.untouched:
            typer.echo(f"{plan.day_id}: {plan.lab}: {backups.UNTOUCHED}; it will be regenerated in place")
        elif plan.lab_exists:
            typer.echo(f"{plan.day_id}: {plan.lab} ({plan.lab_files} files) will be backed up to "
                       f"{plan.backups_dir}/ and its contents replaced by a fresh lab (the directory stays)")
        else:
            typer.echo(word("cli.reset_plan_new", day=plan.day_id, lab=plan.lab))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    for one in days:
        try:
            done = _backup_call(backups.reset, course, one)
        except KeyboardInterrupt:
            raise fail(f"interrupted during the reset of {one.id}: its lab holds either what it held or a "
                       f"fresh lab, and any backup taken is complete (grader restore {one.id} lists them)",
                       EXIT_INTERRUPTED) from None
        typer.echo(done.describe())
        if done.backup is not None:
            typer.echo(f"bring it back with: grader restore {one.id} {done.backup.name}")


@app.command()
def restore(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    backup: Annotated[Optional[str], typer.Argument(
        metavar="BACKUP", help="a backup name; without it: list the backups and what each holds")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")] = False,
) -> None:
    """List a lab's backups, or bring one back in place (the current lab is backed up first)."""
    from grader import backups
    course = load()
    the_day = find_day(course, day)
    if backup is None:
        found = _backup_call(backups.describe_backups, course, the_day)
        if not found:
            typer.echo(word("cli.no_backups", day=the_day.id))
            raise typer.Exit(EXIT_OK)
        typer.echo(f"backups of {the_day.id}, newest first (files changed: compared with the untouched lab):")
        for one in found:
            typer.echo(f"  {one.describe()}")
        typer.echo(f"bring one back with: grader restore {the_day.id} {found[0].backup.name}")
        raise typer.Exit(EXIT_OK)
    plan = _backup_call(backups.plan_restore, course, the_day, backup)
    if plan.untouched:
        before = f"; {backups.UNTOUCHED}"
    elif plan.lab_exists:
        before = "; the current lab is backed up first"
    else:
        before = ""
    typer.echo(f"{plan.day_id}: the contents of {plan.lab} will be replaced by backup {plan.source.name}{before}")
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    try:
        done = _backup_call(backups.restore, course, the_day, backup)
    except KeyboardInterrupt:
        raise fail(f"interrupted during the restore: the lab holds either what it held or the backup, and "
                   f"any backup taken is complete (grader restore {the_day.id} lists them)",
                   EXIT_INTERRUPTED) from None
    typer.echo(done.describe())
    if done.backup is not None:
        typer.echo(f"undo with: grader restore {the_day.id} {done.backup.name}")


@app.command()
def verify(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help="one day; default: every day")] = None,
) -> None:
    """Prove the kit is gradable: solutions pass, labs score their scaffold count, mappings are exact."""
    from grader.verify import render_table, verify as run_verify
    course = load(localised=False)  # verify holds course.toml's titles to the checks' docstrings
    days = [find_day(course, day).id] if day else None
    report = _backup_call(run_verify, course, days)
    typer.echo(render_table(report), nl=False)
    raise typer.Exit(EXIT_OK if report.ok else EXIT_FAILED)


def main() -> None:
    """Console-script entry point."""
    app()


# Grading a class (grade, gradebook merge|report) lives in its own package.
from grader.classroom.commands import register as _register_classroom  # noqa: E402

_register_classroom(app)
