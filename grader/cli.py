"""The `grader` command line: thin commands over result objects and renderers.

Exit codes: 0 every core check passed (or the command did its job); 1 some core
check did not pass; 2 a usage or infrastructure problem (unknown day, missing lab,
broken course.toml, checks not available), printed to stderr without a traceback;
3 (`check --ci`) the grader's files or course.toml differ from the shipped record,
before the run or after it (a lab's code runs as the same user and could write there).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from grader import hints as hinting
from grader import i18n
from grader.i18n import word
from grader.course import Course, CourseError, Day, find_course, load_course
from grader.engine import EngineError, run_day
from grader.report import github, gradescope, junit
from grader.report.json import render_json
from grader.report.text import can_encode, render_text
from grader.state import State

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=i18n.language_group(),
                  help="Grade the labs of agent-lab: check your work, get hints, see your progress.")

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TAMPERED = 0, 1, 2, 3


class _Options:
    course_path: Optional[Path] = None


_options = _Options()


@app.callback()
def _main(course: Annotated[Optional[Path], typer.Option(
        "--course", help="course.toml (or its directory); default: $GRADER_COURSE, then search upward.")] = None,
          lang: Annotated[Optional[str], typer.Option(
        "--lang", help="zh or en; default: $GRADER_LANG, then the locale (LC_ALL, LC_MESSAGES, LANG), then en.")] = None
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


def load(localised: bool = True) -> Course:
    """The course; as students read it (titles and hints in the chosen language) unless not `localised`."""
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


# --------------------------------------------------------------------------- student commands

def _render_text(result, day: Day, keep: bool) -> str:
    return render_text(result, day, keep=keep, colour=use_colour(), unicode=can_encode(sys.stdout.encoding))


def _render_json(result, day: Day, keep: bool) -> str:
    return render_json(result)


# How `check` prints its result on stdout; files (JUnit, Gradescope) are written besides.
RENDERERS = {"text": _render_text, "json": _render_json}


@app.command()
def check(
    day: Annotated[str, typer.Argument(help="day-07, 07, 7 or the day's slug")],
    lab: Annotated[Optional[Path], typer.Option(help="lab directory to grade (default: the day's lab)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON only")] = False,
    junit_path: Annotated[Optional[Path], typer.Option("--junit", help="also write JUnit XML here")] = None,
    gradescope_path: Annotated[Optional[Path], typer.Option(
        "--gradescope", help="also write a Gradescope results.json here")] = None,
    keep: Annotated[bool, typer.Option(help="keep scratch directories and print reproduce commands")] = False,
    only: Annotated[Optional[list[str]], typer.Option(help="run only this check id (repeatable)")] = None,
    seed: Annotated[Optional[int], typer.Option(
        help="generate the checks' inputs from this seed (the report prints the seed of every run)")] = None,
    ci: Annotated[bool, typer.Option("--ci", help="CI mode: refuse to run (exit 3) if the checks or "
                                     "course.toml differ from the shipped ones; keep no progress state")] = False,
) -> None:
    """Run a day's checks against your lab and report what passes."""
    course = load()
    the_day = find_day(course, day)
    from grader import integrity
    if ci:
        _refuse_if_tampered(course)
    target = (lab or the_day.lab).expanduser()
    # Progress and hint levels belong to the student's own lab: grading another directory
    # (a classmate's submission, a solution) must not move them.
    own_lab = not ci and target.resolve() == Path(the_day.lab).resolve()
    state = load_state(course)
    guarded = integrity.current(course.root)
    try:
        result = run_day(course, the_day, target, keep=keep, select=only or None, seed=seed,
                         hint_levels=hinting.report_levels(state, the_day) if own_lab else None)
    except EngineError as exc:
        raise fail(str(exc)) from None
    _report_changes_during_run(course, guarded, ci)
    if own_lab:
        hinting.mark_shown(state, the_day, result)
        if not only:
            state.record_result(result)
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
    day: Annotated[str, typer.Argument(help="day-07, 07, 7 or the day's slug")],
    check_id: Annotated[Optional[str], typer.Argument(
        metavar="[CHECK]", help="a check id; default: every check that failed in the last run")] = None,
) -> None:
    """Show the next hint level of a check (and remember that you have seen it)."""
    course = load()
    the_day = find_day(course, day)
    state = load_state(course)
    if check_id is not None:
        try:
            checks = [the_day.check(check_id)]
        except KeyError:
            raise fail(word("cli.unknown_check", day=the_day.id, check=check_id,
                            known=", ".join(c.id for c in the_day.all_checks))) from None
    else:
        checks = hinting.checks_for_hint(state, the_day)
        if not checks:
            typer.echo(word("hint.none_needed", day=the_day.id))
            raise typer.Exit(EXIT_OK)
    blocks = []
    for one in checks:
        shown = hinting.reveal_next(state, the_day, one)
        blocks.append(_hint_text(the_day, shown))
    save_state(state)
    typer.echo("\n".join(blocks), nl=False)


def _hint_text(day: Day, shown: hinting.HintShown) -> str:
    head = word("hint.head", check=shown.check_id, level=shown.level, total=shown.total)
    if shown.already_all:
        head += word("hint.all_shown")
    lines = [head, f"  {shown.text}"]
    if shown.more:
        lines.append(word("hint.more", day=day.id, check=shown.check_id))
    return "\n".join(lines) + "\n"


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
    day: Annotated[Optional[str], typer.Argument(help="day-07, 07, 7 or the day's slug")] = None,
    all_days: Annotated[bool, typer.Option("--all", help="reset every day's lab")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")] = False,
) -> None:
    """Put a lab back to its untouched state; your current lab is backed up first."""
    from grader import backups
    course = load()
    if all_days == (day is not None):
        raise fail(word("cli.reset_one_or_all"))
    days = course.days if all_days else [find_day(course, day)]
    plans = [_backup_call(backups.plan_reset, course, one) for one in days]
    for plan in plans:
        if plan.lab_exists:
            typer.echo(word("cli.reset_plan", day=plan.day_id, lab=plan.lab, files=plan.lab_files,
                            backups=plan.backups_dir))
        else:
            typer.echo(word("cli.reset_plan_new", day=plan.day_id, lab=plan.lab))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    for one in days:
        typer.echo(_backup_call(backups.reset, course, one).describe())
    typer.echo(word("cli.restore_how"))


@app.command()
def restore(
    day: Annotated[str, typer.Argument(help="day-07, 07, 7 or the day's slug")],
    backup: Annotated[Optional[str], typer.Argument(help="a backup name; none: list the backups")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")] = False,
) -> None:
    """List a lab's backups, or bring one back (the current lab is backed up first)."""
    from grader import backups
    course = load()
    the_day = find_day(course, day)
    if backup is None:
        found = _backup_call(backups.list_backups, course, the_day)
        if not found:
            typer.echo(word("cli.no_backups", day=the_day.id))
            raise typer.Exit(EXIT_OK)
        typer.echo(word("cli.backups_head", day=the_day.id))
        for one in found:
            typer.echo(word("cli.backup_row", name=one.name, files=one.files, path=one.path))
        typer.echo(word("cli.restore_one", day=the_day.id))
        raise typer.Exit(EXIT_OK)
    plan = _backup_call(backups.plan_restore, course, the_day, backup)
    typer.echo(word("cli.restore_plan", day=plan.day_id, lab=plan.lab, backup=plan.source.name)
               + (word("cli.restore_plan_backup") if plan.lab_exists else ""))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    typer.echo(_backup_call(backups.restore, course, the_day, backup).describe())


@app.command()
def verify(
    day: Annotated[Optional[str], typer.Argument(help="one day; default: every day")] = None,
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
