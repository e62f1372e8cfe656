"""`grader hint` (the hint levels a lab has reached, and the next one) and `grader list`
(the days, and the last result of each)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from grader.commands.common import DAY_HELP, EXIT_OK, fail, find_day, load, load_state, report_width, save_state
from grader.course import Day
from grader.i18n import display_width, help_word, word
from grader.lab import hints as hinting
from grader.lab.state import State
from grader.report.text import check_numbers, wrap


def register(app: typer.Typer) -> None:
    app.command(help=help_word("help.hint"))(hint)
    app.command("list", help=help_word("help.list"))(list_days)


def hint(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    check_id: Annotated[Optional[str], typer.Argument(
        metavar="CHECK", help=help_word("help.hint_check"))] = None,
    next_level: Annotated[bool, typer.Option("--next", help=help_word("help.hint_next"))] = False,
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
            typer.echo(word("hint.none_needed", day=the_day.id))
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
        typer.echo(word("hint.not_checked", day=day.id) + "\n")
    elif not core:
        typer.echo(word("hint.all_core_passed", day=day.id))
    blocks = []
    for one in core:
        shown = hinting.current(state, day, one)
        head = f"{numbers[one.id]:>2} " + word("hint.head", check=shown.check_id, level=shown.level, total=shown.total)
        lines = [head, *wrap(shown.text, report_width(), "   ", "   ")]
        if shown.more:
            lines.append(word("hint.next_hint", day=day.id, check=shown.check_id))
        blocks.append("\n".join(lines) + "\n")
    width = report_width()
    if blocks:
        typer.echo("\n".join(blocks), nl=False)
        typer.echo("")
        for line in wrap(word("hint.reached", day=day.id, point=day.exercises[0].id if day.exercises else "E1"),
                         width):
            typer.echo(line)
    if bonus:
        names = ", ".join(c.id for c in bonus)
        for line in wrap(word("hint.bonus_failing", names=names, day=day.id, first=bonus[0].id), width):
            typer.echo(line)


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
        first, indent = f"  {day.id:<{width}}  ", " " * (width + 4)
        columns = report_width()
        lines = wrap(day.title, columns, first, indent)
        if columns and display_width(f"{lines[-1]}  [{status}]") > columns:
            lines.append(f"{indent}[{status}]")  # the status whole on a line of its own
        else:
            lines[-1] += f"  [{status}]"
        for line in lines:
            typer.echo(line)

