"""The instructor's commands for handing the course out: `grader release` (the student
edition, grader/release/) and `grader gradescope ...` (an autograder zip and the two
steps its run_autograder takes, grader/release/gradescope.py), added to the app by
`register(app)`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from grader import i18n
from grader.commands.common import EXIT_FAILED, EXIT_OK, fail, find_day, load
from grader.i18n import help_word, word


def register(app: typer.Typer) -> None:
    app.command("release", help=help_word("help.release"))(release_command)
    gradescope = typer.Typer(cls=i18n.language_group(), no_args_is_help=True, add_completion=False,
                             help=help_word("help.gradescope_group"))
    gradescope.command("bundle", help=help_word("help.bundle"))(bundle_command)
    gradescope.command("find-lab", help=help_word("help.find_lab"))(find_lab_command)
    gradescope.command("no-result", help=help_word("help.no_result"))(no_result_command)
    app.add_typer(gradescope, name="gradescope")


def release_command(
    out: Annotated[Path, typer.Option("--out", "-o", metavar="DIR", help=help_word("help.release_out"))],
    through: Annotated[Optional[str], typer.Option(metavar="DAY", help=help_word("help.release_through"))] = None,
    force: Annotated[bool, typer.Option("--force", help=help_word("help.release_force"))] = False,
) -> None:
    """Write the student edition: the labs and the grader, without solutions (refused if any solution code would ship)."""
    from grader import release

    course = load(localised=False)
    try:
        edition, written = release.release(course, out, through=through, force=force)
    except release.ReleaseError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(word("cli.os_error", file=exc.filename or "", why=exc.strerror)) from None
    days = edition.days
    span = days[0].id if len(days) == 1 else f"{days[0].id} .. {days[-1].id}"
    typer.echo(word("release.done", name=course.name, days=span, files=written.files, out=written.out))
    if written.removed:
        typer.echo(word("release.removed", count=len(written.removed), files=", ".join(written.removed[:5])))
    if len(days) > 1:
        typer.echo(word("release.note_later_labs", later=", ".join(d.id for d in days[1:]), first=days[0].id))
    typer.echo(word("release.next", out=written.out))


def bundle_command(
    day: Annotated[str, typer.Argument(metavar="DAY", help=help_word("help.bundle_day"))],
    out: Annotated[Path, typer.Option("--out", "-o", metavar="ZIP", help=help_word("help.bundle_out"))],
    force: Annotated[bool, typer.Option("--force", help=help_word("help.bundle_force"))] = False,
) -> None:
    """Write a Gradescope autograder zip for DAY: setup.sh, run_autograder, pinned dependencies and the student edition of DAY."""
    from grader.release import gradescope as gradescope_bundle

    course = load(localised=False)
    the_day = find_day(course, day)
    try:
        path, unpinned = gradescope_bundle.bundle(course, the_day, out, force=force)
    except gradescope_bundle.BundleError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(word("cli.os_error", file=exc.filename or "", why=exc.strerror)) from None
    if unpinned:
        typer.echo(word("gradescope.unpinned", names=", ".join(unpinned)), err=True)
    lab = Path(the_day.lab).name
    typer.echo(word("gradescope.done", out=path, size=_size(path.stat().st_size), day=the_day.id, lab=lab,
                    lang=i18n.language()))


def _size(n: int) -> str:
    from grader.lab.backups import human_size
    return human_size(n)


def find_lab_command(
    day: Annotated[str, typer.Argument(metavar="DAY", help=help_word("help.find_lab_day"))],
    submission: Annotated[Path, typer.Argument(metavar="SUBMISSION", help=help_word("help.find_lab_submission"))],
    results: Annotated[Path, typer.Option(metavar="PATH", help=help_word("help.find_lab_results"))],
) -> None:
    """(run_autograder) Print the path of the DAY lab in SUBMISSION; without one, write a zero score saying what to upload (exit 1)."""
    from grader.release import gradescope as gradescope_bundle

    course = load()
    the_day = find_day(course, day)
    try:
        lab = gradescope_bundle.find_lab(course, the_day, submission)
    except gradescope_bundle.NoLab as exc:
        gradescope_bundle.write_result(results, gradescope_bundle.zero_result(the_day, str(exc)))
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_FAILED) from None
    typer.echo(str(lab))


def no_result_command(
    day: Annotated[str, typer.Argument(metavar="DAY", help=help_word("help.no_result_day"))],
    results: Annotated[Path, typer.Option(metavar="PATH", help=help_word("help.no_result_results"))],
    exit_code: Annotated[int, typer.Option(metavar="N", help=help_word("help.no_result_exit"))],
    stderr: Annotated[Optional[Path], typer.Option(metavar="FILE", help=help_word("help.no_result_stderr"))] = None,
) -> None:
    """(run_autograder) If `grader check` wrote no results.json, write a zero score that carries its message."""
    from grader.release import gradescope as gradescope_bundle

    course = load()
    the_day = find_day(course, day)
    if gradescope_bundle.has_result(results):
        raise typer.Exit(EXIT_OK)
    try:
        printed = Path(stderr).read_text(encoding="utf-8", errors="replace") if stderr else ""
    except OSError:
        printed = ""
    message = gradescope_bundle.not_graded_message(exit_code, printed)
    gradescope_bundle.write_result(results, gradescope_bundle.zero_result(the_day, message))
    typer.echo(message, err=True)
