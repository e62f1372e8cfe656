"""`grader check` (a day's checks against a lab, the report, the files beside it) and
`grader watch` (the same on every save)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from grader.lab import hints as hinting
from grader.commands.common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, fail, day_or_here, is_terminal, load,
                                    load_state, refuse_if_tampered, report_changes_during_run, report_width,
                                    options, save_state, use_colour)
from grader.course import Day
from grader.engine import EngineError, Interrupted, not_a_lab, run_day
from grader.i18n import help_word, word
from grader.report import github, gradescope, junit
from grader.report.json import render_json
from grader.report.text import (ASCII_MARKS, UNICODE_MARKS, _Painter, can_encode, check_head, check_numbers,
                                display_width, render_text)


def register(app: typer.Typer) -> None:
    app.command(help=help_word("help.check"))(check)
    app.command(help=help_word("help.watch"))(watch)


def _render_text(result, day: Day, keep: bool) -> str:
    return render_text(result, day, keep=keep, colour=use_colour(), unicode=can_encode(sys.stdout.encoding),
                       width=report_width())


def _render_json(result, day: Day, keep: bool) -> str:
    return render_json(result)


# How `check` prints its result on stdout; files (JUnit, Gradescope) are written besides.
RENDERERS = {"text": _render_text, "json": _render_json}


def check(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help=help_word("help.day_or_here"))] = None,
    lab: Annotated[Optional[Path], typer.Option(
        metavar="DIR", help=help_word("help.check_lab"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=help_word("help.check_json"))] = False,
    junit_path: Annotated[Optional[Path], typer.Option("--junit", metavar="PATH",
                                                       help=help_word("help.check_junit"))] = None,
    gradescope_path: Annotated[Optional[Path], typer.Option(
        "--gradescope", metavar="PATH", help=help_word("help.check_gradescope"))] = None,
    keep: Annotated[bool, typer.Option("--keep", help=help_word("help.check_keep"))] = False,
    only: Annotated[Optional[list[str]], typer.Option(
        metavar="CHECK", help=help_word("help.check_only"))] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="N", help=help_word("help.check_seed"))] = None,
    ci: Annotated[bool, typer.Option("--ci", help=help_word("help.check_ci"))] = False,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", metavar="N", help=help_word("help.check_jobs"))] = None,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=help_word("help.check_sandbox"))] = False,
    *,
    ctx: typer.Context,
) -> None:
    """Run a day's checks against your lab and report what passes (exit 0: every core check passed)."""
    if sandbox:
        _in_a_sandbox(ctx)
    course = load()
    the_day = day_or_here(course, day, "check")
    if jobs is not None and jobs < 1:
        raise fail(word("cli.bad_jobs", jobs=jobs))
    from grader import integrity
    from grader.scaffold import trees
    if ci:
        refuse_if_tampered(course)
    target = (lab or the_day.lab).expanduser()
    # Progress and hint levels belong to the student's own lab: grading another directory
    # (a classmate's submission, a solution) must not move them, nor even read them.
    own_lab = not ci and target.resolve() == Path(the_day.lab).resolve()
    if target.is_dir():
        problem = not_a_lab(course, the_day, target)
        if problem:
            if own_lab:
                fix = word("cli.fix_own_lab", day=the_day.id)
            else:
                fix = word("cli.fix_other_lab", day=the_day.id, lab=the_day.lab, package=course.agent.package)
            raise fail(word("cli.not_a_lab", day=the_day.id, problem=problem, fix=fix))
    state = load_state(course) if own_lab else None
    guarded = integrity.current(course.root)
    if options.own_process:
        from grader.spawn.groups import adopt_orphans
        adopt_orphans()  # this process only grades: orphans a lab child leaves are adopted and killed
    _say_if_not_hermetic()  # before the progress line starts: that one row is rewritten in place
    live = _LiveLines(the_day, as_json, len(only) if only else len(the_day.all_checks))
    fingerprint = trees.fingerprint(target, course.runtime_dirs) if own_lab and target.is_dir() else None
    try:
        result = run_day(course, the_day, target, keep=keep, select=only or None, seed=seed, jobs=jobs,
                         hint_levels=hinting.report_levels(state, the_day) if own_lab else None,
                         on_check=live.done if live.active else None,
                         on_wait=live.importing if live.active else None)
    except EngineError as exc:
        live.clear()
        raise fail(str(exc)) from None
    except Interrupted as exc:
        live.clear()
        raise fail(word("cli.interrupted_kept", path=exc.kept) if exc.kept else word("cli.interrupted"),
                   EXIT_INTERRUPTED) from None
    live.clear()
    report_changes_during_run(course, guarded, ci)
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


def watch(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help=help_word("help.day_or_here"))] = None,
    lab: Annotated[Optional[Path], typer.Option(metavar="DIR", help=help_word("help.watch_lab"))] = None,
    seed: Annotated[Optional[int], typer.Option(metavar="N", help=help_word("help.watch_seed"))] = None,
) -> None:
    """Grade a lab on every save: every check first, then only the checks of the files you changed."""
    from grader.watch.loop import WatchFailed
    from grader.watch.terminal import Stopped, watch_lab
    course = load()
    the_day = day_or_here(course, day, "watch")
    target = (lab or the_day.lab).expanduser()
    own_lab = target.resolve() == Path(the_day.lab).resolve()
    if not target.is_dir():
        raise fail(word("watch.no_lab", lab=target, day=the_day.id))
    problem = not_a_lab(course, the_day, target)
    if problem:
        raise fail(word("watch.not_a_lab_start", day=the_day.id, problem=problem))
    try:
        code = watch_lab(course, the_day, target.resolve(), own_lab=own_lab, seed=seed, tty=is_terminal(),
                         colour=use_colour())
    except EngineError as exc:
        raise fail(str(exc)) from None
    except WatchFailed as exc:
        raise fail(word("watch.watcher_failed", lab=target, why=str(exc))) from None
    except Stopped as exc:
        said = "watch.stopped_own" if own_lab else "watch.stopped_other"
        during = word("watch.stopped_during") if exc.during_run else ""
        raise fail(word(said, during=during), exc.code) from None
    raise typer.Exit(code)


class _LiveLines:
    """On a terminal, one progress line rewritten in place as each check finishes (the run
    takes seconds): how many are done, and the line of the check that just finished. It is
    erased before the report, so every check is printed once, whatever the terminal's
    height (lines that scrolled off the top could not be erased). Off for --json and
    whenever stdout is not a terminal: then the output is exactly the report."""

    def __init__(self, day: Day, as_json: bool, count: int):
        self.active = not as_json and is_terminal()
        self.day = day
        self.count = count
        self.finished = 0
        self.shown = False
        self.stream = sys.stdout
        self.numbers = check_numbers(day)
        self.titles = {c.id: c for c in day.all_checks}
        self.id_width = max((len(c.id) for c in day.all_checks), default=0)
        self.marks = UNICODE_MARKS if can_encode(getattr(sys.stdout, "encoding", None)) else ASCII_MARKS
        self.paint = _Painter(use_colour())
        self.width = max(shutil.get_terminal_size().columns, 20)
        if self.active:
            self._write(word("cli.running_one" if count == 1 else "cli.running_many", day=day.id, count=count))

    def _fit(self, line: str) -> str:
        if display_width(line) > self.width - 1:    # one terminal row, so clear() erases all of it
            while line and display_width(line) > self.width - 2:
                line = line[:-1]
            line += "…" if self.marks is UNICODE_MARKS else "."
        return line

    def _write(self, line: str) -> None:
        self.stream.write("\r" + self._fit(line) + "\033[K")
        self.stream.flush()
        self.shown = True

    def importing(self, package: str, seconds: int) -> None:
        """The lab is slow to import: say what is being waited for, instead of nothing."""
        self._write(word("cli.importing", day=self.day.id, package=package, seconds=seconds))

    def done(self, check_id: str, status) -> None:
        check = self.titles.get(check_id)
        if check is None:
            return
        self.finished += 1
        number = " *" if check.bonus else f"{self.numbers.get(check_id, 0):>2}"
        head = check_head(check_id, check.title, str(status), number, self.id_width, self.marks)[0]
        line = self._fit(f"{self.finished}/{self.count}{head}")
        if self.paint.colour:
            mark = self.marks[str(status)]
            line = line.replace(f" {mark} ", f" {self.paint(mark, '32' if str(status) == 'passed' else '31')} ", 1)
        self.stream.write("\r" + line + "\033[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.active and self.shown:
            self.stream.write("\r\033[K")   # the progress line, erased where it stands
            self.stream.flush()
            self.shown = False


def _say_if_not_hermetic() -> None:
    """One line on stderr when the lab's children cannot run in a view of their own here."""
    from grader.engine import hermetic_children
    from grader.spawn import base_python, hermetic
    if hermetic_children():
        found = hermetic.find(base_python())
        if not found.bwrap:
            typer.echo(word("hermetic.not_used", why=found.why), err=True)


def _in_a_sandbox(ctx: typer.Context) -> None:
    """`check --sandbox`: the same command again, in a fresh PID namespace (grader/spawn/sandbox.py);
    this process only passes its exit status on. Inside the namespace it is a plain run."""
    from grader.spawn import sandbox
    if sandbox.inside():
        return
    argv = [sys.executable, "-m", "grader", *command_line(ctx)]
    kit = str(Path(__file__).resolve().parents[2])  # the grader inside is this very grader
    env = dict(os.environ, PYTHONPATH=kit + (os.pathsep + os.environ["PYTHONPATH"]
                                             if os.environ.get("PYTHONPATH") else ""))
    try:
        code = sandbox.run(argv, env)
    except sandbox.Unavailable as exc:
        raise fail(word("sandbox.unavailable", why=str(exc))) from None
    raise typer.Exit(code)


def command_line(ctx: typer.Context) -> list[str]:
    """The arguments that give `ctx`'s command the values it has: the grader's own options
    (--course, --lang), the command's name, then each of its parameters."""
    args: list[str] = []
    levels = [ctx.parent, ctx] if ctx.parent is not None else [ctx]
    for level in levels:
        if level is ctx:
            args.append(ctx.info_name)
        for param in level.command.params:
            value = level.params.get(param.name)
            if param.param_type_name == "argument":
                args += [str(one) for one in (value if isinstance(value, (list, tuple)) else [value])
                         if one is not None]
            elif getattr(param, "is_flag", False):
                args += [param.opts[0]] if value else []
            elif value is not None:
                for one in (value if getattr(param, "multiple", False) else [value]):
                    args += [param.opts[0], str(one)]
    return args

