"""`grader reset` and `grader restore`: a lab put back to its untouched state or to one of
its backups, in place, the current lab backed up first (grader/lab/backups.py)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from grader.commands.common import (DAY_HELP, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, echo_wrapped, fail, find_day,
                                    guarded_call, load)
from grader.i18n import help_word, word


def register(app: typer.Typer) -> None:
    app.command(help=help_word("help.reset"))(reset)
    app.command(help=help_word("help.restore"))(restore)


def reset(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help=DAY_HELP)] = None,
    all_days: Annotated[bool, typer.Option("--all", help=help_word("help.reset_all"))] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=help_word("help.yes"))] = False,
) -> None:
    """Put a lab back to its untouched state, in place; your current lab is backed up first."""
    from grader.lab import backups
    course = load()
    if all_days == (day is not None):
        raise fail(word("cli.reset_one_or_all"))
    days = course.days if all_days else [find_day(course, day)]
    plans = [guarded_call(backups.plan_reset, course, one) for one in days]
    for plan in plans:
        if plan.untouched:
            echo_wrapped(word("cli.reset_plan_untouched", day=plan.day_id, lab=plan.lab))
        elif plan.lab_exists:
            echo_wrapped(word("cli.reset_plan", day=plan.day_id, lab=plan.lab, files=plan.lab_files,
                              backups=plan.backups_dir))
        else:
            echo_wrapped(word("cli.reset_plan_new", day=plan.day_id, lab=plan.lab))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    for one in days:
        try:
            done = guarded_call(backups.reset, course, one)
        except KeyboardInterrupt:
            raise fail(word("cli.reset_interrupted", day=one.id), EXIT_INTERRUPTED) from None
        echo_wrapped(done.describe())
        if done.backup is not None:
            typer.echo(word("cli.bring_back", day=one.id, name=done.backup.name))


def restore(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    backup: Annotated[Optional[str], typer.Argument(
        metavar="BACKUP", help=help_word("help.restore_backup"))] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=help_word("help.yes"))] = False,
) -> None:
    """List a lab's backups, or bring one back in place (the current lab is backed up first)."""
    from grader.lab import backups
    course = load()
    the_day = find_day(course, day)
    if backup is None:
        found = guarded_call(backups.describe_backups, course, the_day)
        if not found:
            typer.echo(word("cli.no_backups", day=the_day.id))
            raise typer.Exit(EXIT_OK)
        typer.echo(word("cli.backups_head", day=the_day.id))
        for one in found:
            echo_wrapped(one.describe(), "  ", "    ")
        typer.echo(word("cli.restore_one", day=the_day.id, name=found[0].backup.name))
        raise typer.Exit(EXIT_OK)
    plan = guarded_call(backups.plan_restore, course, the_day, backup)
    key = ("cli.restore_plan_untouched" if plan.untouched else "cli.restore_plan_backup" if plan.lab_exists
           else "cli.restore_plan")
    echo_wrapped(word(key, day=plan.day_id, lab=plan.lab, backup=plan.source.name))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    try:
        done = guarded_call(backups.restore, course, the_day, backup)
    except KeyboardInterrupt:
        raise fail(word("cli.restore_interrupted", day=the_day.id), EXIT_INTERRUPTED) from None
    echo_wrapped(done.describe())
    if done.backup is not None:
        typer.echo(word("cli.undo", day=the_day.id, name=done.backup.name))

