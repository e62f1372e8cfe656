"""How typer's and click's help and errors read: no raw type placeholders, help text that
folds between CJK characters (never starting a line with a closing mark), and typer's
and click's own words in the CLI's language. `install()` is called once, by grader/cli.py,
when it builds the app; `localise(lang)` again when `--lang` is parsed."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys

from grader import i18n
from grader.i18n import help_word, word


def install() -> None:
    """Patch typer, click and rich where they print help and usage errors (each at most once).
    rich and typer's rich layer are patched when they are first imported (`_when_imported`):
    typer imports them only to print help or an error, and a run that prints neither (every
    `grader check`) does not pay their import, a tenth of the grader's start."""
    _tidy_help()
    _when_imported("rich.text", "marks", _keep_marks_off_line_starts)
    localise()


class _AfterImport:
    """A finder on sys.meta_path that runs a module's patches right after the module ran."""

    def __init__(self):
        self.patches: dict[str, dict[str, object]] = {}

    def find_spec(self, name, path=None, target=None):
        if name not in self.patches:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        plain = loader.exec_module

        def exec_module(module):
            plain(module)
            for patch in list(self.patches.get(name, {}).values()):
                patch()
        loader.exec_module = exec_module   # this module's loader only
        return spec


_AFTER = _AfterImport()


def _when_imported(module: str, purpose: str, patch) -> None:
    """`patch()` now if `module` is imported, else right after it is (the latest patch for
    each `purpose` wins)."""
    if module in sys.modules:
        patch()
        return
    _AFTER.patches.setdefault(module, {})[purpose] = patch
    if _AFTER not in sys.meta_path:
        sys.meta_path.insert(0, _AFTER)


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
    if importlib.util.find_spec("rich") is not None:   # else click's plain help
        _when_imported("typer.rich_utils", "fold", _fold_help)
        _help_option()


def _fold_help() -> None:
    """Help text that wraps between CJK characters: rich breaks lines at spaces only and
    crops a longer run with an ellipsis, so a Chinese sentence (no spaces) lost its end."""
    from typer import rich_utils

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


def _help_option() -> None:
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


def localise(lang: str | None = None) -> None:
    """typer's and click's own words (help panels, `Usage:`, `Missing argument`, `Aborted.`)
    in the CLI's language: the help is built before the callback runs, so at import the
    language comes from the command line or the environment (as help_word's), and the
    callback sets it again once `--lang` is parsed."""
    lang = lang or i18n.language_in_args(sys.argv[1:]) or i18n.language()
    if importlib.util.find_spec("rich") is not None:
        _when_imported("typer.rich_utils", "words", lambda: _localise_rich(lang))
    _localise_usage()


def _localise_rich(lang: str) -> None:
    """typer's rich layer in `lang` (its panel titles, and click's errors it prints)."""
    from typer import rich_utils

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


def _localise_usage() -> None:
    """click's `Usage:` in the CLI's language (looked up when the usage is written)."""
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

