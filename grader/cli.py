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
from grader.i18n import help_word, word
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
    _fold_help()


def _fold_help() -> None:
    """Help text that wraps between CJK characters: rich breaks lines at spaces only and
    crops a longer run with an ellipsis, so a Chinese sentence (no spaces) lost its end."""
    try:
        from typer import rich_utils
    except ImportError:  # no rich: click's plain help
        return
    make = getattr(rich_utils, "_make_rich_text", None)
    if make is None or getattr(make, "_grader_fold", False):
        return

    def folding(*args, **kwargs):
        text = make(*args, **kwargs)
        if hasattr(text, "overflow"):
            text.overflow = "fold"
        return text
    folding._grader_fold = True
    rich_utils._make_rich_text = folding
    from typer import core

    command = next((c for c in core.TyperCommand.__mro__ if "get_help_option" in vars(c)), None)
    if command is None:
        return
    plain_help_option = command.get_help_option

    def help_option(self, ctx):  # click's "Show this message and exit." in the help's language
        option = plain_help_option(self, ctx)
        if option is not None:
            option.help = help_word("help.help")
        return option
    command.get_help_option = help_option


_NO_LINE_START = set("，。、；：？！）》」』】〉”’")


def _keep_marks_off_line_starts() -> None:
    """rich folds a run of CJK text wherever the width ends, so a wrapped Chinese help line
    could start with `。` or `，`: a break before such a mark moves back one character, so
    the mark stays with the word it closes (the line only gets shorter)."""
    try:
        from rich import text as rich_text
    except ImportError:
        return
    plain = getattr(rich_text, "divide_line", None)
    if plain is None or getattr(plain, "_grader_marks", False):
        return

    def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
        breaks = plain(text, width, fold=fold)
        out: list[int] = []
        for offset in breaks:
            floor = out[-1] + 1 if out else 1
            while offset > floor and offset < len(text) and text[offset] in _NO_LINE_START:
                offset -= 1
            out.append(offset)
        return out
    divide_line._grader_marks = True
    rich_text.divide_line = divide_line


# typer's and click's own words, as they are in English, and the grader's key for each
_TYPER_CONSTANTS = {"ARGUMENTS_PANEL_TITLE": "arguments", "OPTIONS_PANEL_TITLE": "options",
                    "COMMANDS_PANEL_TITLE": "commands", "ERRORS_PANEL_TITLE": "error", "ABORTED_TEXT": "aborted",
                    "REQUIRED_LONG_STRING": "required", "DEFAULT_STRING": "default", "ENVVAR_STRING": "envvar",
                    "RICH_HELP": "try_help"}
_TYPER_VALUES = {"default": {"value": "{}"}, "envvar": {"value": "{}"},
                 "try_help": {"command": "{command_path}", "option": "{help_option}"}}
_CLICK_ERRORS = [  # (click's English message, the grader's key, the fields)
    (r"Missing argument (?P<name>.+)\.", "missing_argument"),
    (r"Missing option (?P<name>.+)\.", "missing_option"),
    (r"Missing parameter: (?P<name>.+)", "missing_parameter"),
    (r"Missing command\.", "missing_command"),
    (r"No such option: (?P<name>\S+)", "no_such_option"),
    (r"No such option: (?P<name>\S+) \(Possible options: (?P<names>.+)\)", "no_such_option_near"),
    (r"Input should be a valid integer.*", "should_be_integer"),
    (r"Input should be a valid number.*", "should_be_number"),
    (r"No such command (?P<name>.+)\.", "no_such_command"),
    (r"Got unexpected extra argument \((?P<args>.+)\)", "extra_arguments"),
    (r"Got unexpected extra arguments?\(s\)? \((?P<args>.+)\)", "extra_arguments_many"),
    (r"Option (?P<name>.+) requires an argument\.", "requires_argument"),
    (r"(?P<value>.+) is not a valid integer\.", "not_integer"),
    (r"(?P<value>.+) is not a valid float\.", "not_float"),
    (r"(?P<value>.+) is not one of (?P<choices>.+)\.", "not_choice"),
]


def _click_message(text: str) -> str:
    """One of click's usage-error messages in the CLI's language (as it is when unknown)."""
    import re

    for pattern, key in _CLICK_ERRORS:
        match = re.fullmatch(pattern, text, re.S)
        if match:
            return word(f"typer.{key}", **match.groupdict())
    suggestion = re.fullmatch(r"(?P<message>.+?) Did you mean (?P<names>.+)\?", text, re.S)
    if suggestion:
        return word("typer.did_you_mean", message=_click_message(suggestion["message"]), names=suggestion["names"])
    invalid = re.fullmatch(r"Invalid value for (?P<name>.+?): (?P<why>.+)", text, re.S)
    if invalid:
        return word("typer.invalid_value", name=invalid["name"], why=_click_message(invalid["why"]))
    return text


def _localise_typer(lang: str | None = None) -> None:
    """typer's and click's own words (help panels, `Usage:`, `Missing argument`, `Aborted.`)
    in the CLI's language: the help is built before the callback runs, so at import the
    language comes from the command line or the environment (as help_word's), and the
    callback sets it again once `--lang` is parsed."""
    lang = lang or i18n.language_in_args(sys.argv[1:]) or i18n.language()
    try:
        from typer import rich_utils
    except ImportError:
        rich_utils = None
    if rich_utils is not None:
        for name, key in _TYPER_CONSTANTS.items():
            if hasattr(rich_utils, name):
                setattr(rich_utils, name, i18n._word(f"typer.{key}", lang, _TYPER_VALUES.get(key, {})))
        plain_error = getattr(rich_utils, "rich_format_error", None)
        if plain_error is not None and not getattr(plain_error, "_grader_words", False):
            def rich_format_error(self, *args, **kwargs):
                message = self.format_message
                if i18n.language() != i18n.SOURCE:
                    self.format_message = lambda: _click_message(message())
                try:
                    return plain_error(self, *args, **kwargs)
                finally:
                    self.__dict__.pop("format_message", None)
            rich_format_error._grader_words = True
            rich_utils.rich_format_error = rich_format_error
    for module_name in ("typer._click.formatting", "click.formatting"):
        module = sys.modules.get(module_name)
        formatter = getattr(module, "HelpFormatter", None)
        if formatter is None:
            continue
        plain_usage = getattr(formatter.write_usage, "_grader_plain", formatter.write_usage)

        def write_usage(self, prog, args="", prefix=None, _plain=plain_usage):
            return _plain(self, prog, args, word("typer.usage") if prefix is None else prefix)
        write_usage._grader_plain = plain_usage
        formatter.write_usage = write_usage


_tidy_help()
_keep_marks_off_line_starts()
_localise_typer()

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=i18n.language_group(),
                  help=help_word("help.app"))

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_TAMPERED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DAY_HELP = help_word("help.day")


class _Options:
    course_path: Optional[Path] = None


_options = _Options()


@app.callback()
def _main(course: Annotated[Optional[Path], typer.Option(
        "--course", metavar="PATH",
        help=help_word("help.course"))] = None,
          lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="zh|en",
        help=help_word("help.lang"))] = None
          ) -> None:
    """Grade the labs of agent-lab."""
    _options.course_path = course
    try:
        _localise_typer(i18n.set_language(lang))  # every run chooses afresh (None: from the environment)
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
        raise fail(word("cli.cwd_gone", shell=shell) if shell else word("cli.cwd_gone_unknown")) from None


def load(localised: bool = True) -> Course:
    """The course; as students read it (titles and hints in the chosen language) unless not `localised`."""
    require_cwd()
    try:
        course = load_course(find_course(_options.course_path))
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


# --------------------------------------------------------------------------- student commands

def _render_text(result, day: Day, keep: bool) -> str:
    return render_text(result, day, keep=keep, colour=use_colour(), unicode=can_encode(sys.stdout.encoding),
                       width=report_width())


def _render_json(result, day: Day, keep: bool) -> str:
    return render_json(result)


# How `check` prints its result on stdout; files (JUnit, Gradescope) are written besides.
RENDERERS = {"text": _render_text, "json": _render_json}


@app.command(help=help_word("help.check"))
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
                fix = word("cli.fix_own_lab", day=the_day.id)
            else:
                fix = word("cli.fix_other_lab", day=the_day.id, lab=the_day.lab, package=course.agent.package)
            raise fail(word("cli.not_a_lab", day=the_day.id, problem=problem, fix=fix))
    state = load_state(course) if own_lab else None
    guarded = integrity.current(course.root)
    from grader.spawn.groups import adopt_orphans
    adopt_orphans()  # this process only grades: orphans a lab child leaves are adopted and killed
    live = _LiveLines(the_day, as_json, len(only) if only else len(the_day.all_checks))
    fingerprint = trees.fingerprint(target, course.runtime_dirs) if own_lab and target.is_dir() else None
    _say_if_not_hermetic()
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


@app.command(help=help_word("help.watch"))
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


def _say_if_not_hermetic() -> None:
    """One line on stderr when the lab's children cannot run in a view of their own here."""
    from grader.engine import hermetic_children
    from grader.spawn import base_python, hermetic
    if hermetic_children():
        found = hermetic.find(base_python())
        if not found.bwrap:
            typer.echo(word("hermetic.not_used", why=found.why), err=True)


def _in_a_sandbox(ctx: typer.Context) -> None:
    """`check --sandbox`: the same command again, in a fresh PID namespace (grader/sandbox.py);
    this process only passes its exit status on. Inside the namespace it is a plain run."""
    from grader import sandbox
    if sandbox.inside():
        return
    argv = [sys.executable, "-m", "grader", *command_line(ctx)]
    kit = str(Path(__file__).resolve().parent.parent)  # the grader inside is this very grader
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


@app.command(help=help_word("help.hint"))
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


@app.command("list", help=help_word("help.list"))
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


@app.command(help=help_word("help.reset"))
def reset(
    day: Annotated[Optional[str], typer.Argument(metavar="DAY", help=DAY_HELP)] = None,
    all_days: Annotated[bool, typer.Option("--all", help=help_word("help.reset_all"))] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=help_word("help.yes"))] = False,
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
            done = _backup_call(backups.reset, course, one)
        except KeyboardInterrupt:
            raise fail(word("cli.reset_interrupted", day=one.id), EXIT_INTERRUPTED) from None
        echo_wrapped(done.describe())
        if done.backup is not None:
            typer.echo(word("cli.bring_back", day=one.id, name=done.backup.name))


@app.command(help=help_word("help.restore"))
def restore(
    day: Annotated[str, typer.Argument(metavar="DAY", help=DAY_HELP)],
    backup: Annotated[Optional[str], typer.Argument(
        metavar="BACKUP", help=help_word("help.restore_backup"))] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=help_word("help.yes"))] = False,
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
        typer.echo(word("cli.backups_head", day=the_day.id))
        for one in found:
            echo_wrapped(one.describe(), "  ", "    ")
        typer.echo(word("cli.restore_one", day=the_day.id, name=found[0].backup.name))
        raise typer.Exit(EXIT_OK)
    plan = _backup_call(backups.plan_restore, course, the_day, backup)
    key = ("cli.restore_plan_untouched" if plan.untouched else "cli.restore_plan_backup" if plan.lab_exists
           else "cli.restore_plan")
    echo_wrapped(word(key, day=plan.day_id, lab=plan.lab, backup=plan.source.name))
    if not yes and not typer.confirm(word("cli.go_ahead"), default=False):
        typer.echo(word("cli.nothing_changed"))
        raise typer.Exit(EXIT_FAILED)
    try:
        done = _backup_call(backups.restore, course, the_day, backup)
    except KeyboardInterrupt:
        raise fail(word("cli.restore_interrupted", day=the_day.id), EXIT_INTERRUPTED) from None
    echo_wrapped(done.describe())
    if done.backup is not None:
        typer.echo(word("cli.undo", day=the_day.id, name=done.backup.name))


@app.command(help=help_word("help.verify"))
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
        report = _backup_call(verify_student if student else run_verify, course, days,
                              progress=live.show if live.active else None)
    finally:
        live.clear()
    typer.echo(render_table(report, localised=student, width=report_width()), nl=False)
    raise typer.Exit(EXIT_OK if report.ok else EXIT_FAILED)


from grader.edition_cli import register as _register_edition_commands  # noqa: E402 (needs the helpers above)

_register_edition_commands(app)   # release, gradescope bundle|find-lab|no-result


def main() -> None:
    """Console-script entry point."""
    app()


# Grading a class (grade, gradebook merge|report) lives in its own package.
from grader.classroom.commands import register as _register_classroom  # noqa: E402

_register_classroom(app)
