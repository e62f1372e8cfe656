"""The `grader` command line: one typer app, built here from the command modules of
`COMMANDS` (grader/commands/, grader/classroom/commands.py); thin commands over result
objects and renderers.

Exit codes: 0 every core check passed (or the command did its job); 1 some core
check did not pass; 2 a usage or infrastructure problem (unknown day, missing lab,
broken course.toml, checks not available), printed to stderr without a traceback;
3 (`check --ci`) the grader's files or course.toml differ from the shipped record,
before the run or after it (a lab's code runs as the same user and could write there);
130 interrupted with Ctrl-C (the message says what, if anything, was changed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from grader import i18n
from grader.classroom import commands as classroom
from grader.commands import check, common, edition, helptext, hint, lab, verify
from grader.i18n import help_word, word

# Every command module, in the order `grader --help` lists their commands; each adds its
# commands with `register(app)` and imports nothing back from here.
COMMANDS = (check, hint, lab, verify, edition, classroom)


def _main(course: Annotated[Optional[Path], typer.Option(
        "--course", metavar="PATH",
        help=help_word("help.course"))] = None,
          lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="zh|en",
        help=help_word("help.lang"))] = None
          ) -> None:
    """Grade the labs of agent-lab."""
    common.options.course_path = course
    try:
        helptext.localise(i18n.set_language(lang))  # every run chooses afresh (None: from the environment)
    except ValueError:
        i18n.set_language(None)
        raise common.fail(word("cli.unknown_language", lang=lang)) from None


def build_app() -> typer.Typer:
    """The `grader` app: typer's help in the grader's words, then every command of COMMANDS."""
    helptext.install()
    built = typer.Typer(add_completion=False, no_args_is_help=True, cls=i18n.language_group(),
                        help=help_word("help.app"))
    built.callback()(_main)
    for module in COMMANDS:
        module.register(built)
    return built


app = build_app()


def main() -> None:
    """Console-script entry point."""
    common.options.own_process = True
    app()
