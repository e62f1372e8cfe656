"""The grader's languages: which one speaks, its catalogues, and text widths on a terminal.

Every sentence a student reads exists in English (the source text) and may exist in
Chinese beside it, as keyed TOML catalogues (docs/architecture.md says why):

    grader/words.toml                     the grader's own words (report, CLI)  + words.zh.toml
    grader/checkkit/messages.toml         the check kit's sentences             + messages.zh.toml
    grader/checks/dayNN/messages.toml     a day's sentences                     + messages.zh.toml
    course.toml                           titles and hints                      + course.zh.toml (the
                                          course's title) and grader/checks/dayNN/course.zh.toml
    source/sheets/<slug>.md               a lab sheet                           + <slug>.zh.md

The language is `--lang`, else $GRADER_LANG, else the locale (the first of LC_ALL,
LC_MESSAGES, LANG that is set: `zh...` is Chinese), else English. A key, a hint or a
title missing from the Chinese catalogue (or one whose placeholders do not fit) is said
in English: a student's run never fails over a translation; tests/kit/test_i18n.py does.
Ids, statuses, JSON keys and exit codes are the same in every language.
"""

from __future__ import annotations

import os
import string
import sys
import tomllib
import unicodedata
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping

LANGUAGES = ("en", "zh")
SOURCE = "en"            # the language of course.toml, messages.toml, words.toml and <slug>.md
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
WORDS = Path(__file__).with_name("words.toml")

_chosen: str | None = None


# --------------------------------------------------------------------------- which language

def normalise(text: str | None) -> str | None:
    """'zh', 'zh_CN.UTF-8', 'ZH-tw' -> 'zh'; 'en', 'en_US' -> 'en'; anything else None."""
    if not text:
        return None
    head = text.strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    return head if head in LANGUAGES else None


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """$GRADER_LANG if it names a language, else the locale, else English."""
    env = os.environ if env is None else env
    chosen = normalise(env.get("GRADER_LANG"))
    if chosen:
        return chosen
    for name in LOCALE_VARIABLES:  # POSIX: the first one set decides, C and POSIX included
        value = env.get(name)
        if value:
            return "zh" if value.strip().lower().startswith("zh") else SOURCE
    return SOURCE


def set_language(lang: str | None) -> str:
    """Choose the language for this process (None: from the environment); returns it."""
    global _chosen
    if lang is not None and normalise(lang) is None:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    _chosen = normalise(lang) if lang is not None else from_environment()
    return _chosen


def language() -> str:
    """The language of this process: the one set, else the environment's."""
    return _chosen if _chosen is not None else from_environment()


# --------------------------------------------------------------------------- catalogues

def translated(path: Path, lang: str) -> Path:
    """The translation of a source-language file: messages.toml -> messages.zh.toml."""
    path = Path(path)
    return path if lang == SOURCE else path.with_name(f"{path.stem}.{lang}{path.suffix}")


@lru_cache(maxsize=64)
def _parse_toml(text: str) -> dict:
    return tomllib.loads(text)


def read_toml(path: Path) -> dict:
    """A TOML file as a dict ({} if it is absent or unreadable: a broken translation falls back).
    Kept by its text, not its path: every grading reads the messages of a fresh copy of the
    day's checks folder, which a process that grades run after run parses once."""
    path = Path(path)
    try:
        return _parse_toml(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}


def catalogue_chain(*sources: Path, lang: str | None = None) -> list[Path]:
    """Each source catalogue preceded by its translation: [day.zh, day, kit.zh, kit]."""
    lang = lang or language()
    chain: list[Path] = []
    for source in sources:
        if lang != SOURCE:
            chain.append(translated(source, lang))
        chain.append(Path(source))
    return chain


def fields(text: str) -> set[str]:
    """The placeholder names of a format string: 'at {line} ({seconds:g})' -> {'line', 'seconds'}."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def lookup(tables: list[dict], key: str, values: Mapping[str, object]) -> str | None:
    """The first table's `section.name` that formats with `values`; None if none has it.

    A translation that names a placeholder the caller does not give (a typo, an old
    copy) is skipped for the next table, so the English source still speaks. If no
    table formats, the last error is raised: the source itself does not fit its caller."""
    section, _, name = key.partition(".")
    error: Exception | None = None
    for table in tables:
        part = table.get(section)
        text = part.get(name) if name and isinstance(part, dict) else (part if not name else None)
        if not isinstance(text, str):
            continue
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError) as exc:
            error = exc
    if error is not None:
        raise error
    return None


def word(key: str, /, **values) -> str:
    """One of the grader's own sentences (grader/words.toml) in the chosen language."""
    return _word(key, language(), values)


def _word(key: str, lang: str, values: Mapping[str, object]) -> str:
    tables = [read_toml(p) for p in catalogue_chain(WORDS, lang=lang)]
    text = lookup(tables, key, values)
    if text is None:
        raise KeyError(f"no word {key!r} in {WORDS}")
    return text


def help_word(key: str, /, **values) -> str:
    """A `--help` text (words.toml [help]). Typer takes the help texts when the commands are
    defined, at import, before any option is parsed: so they speak the language `--lang`
    names on this process's command line (sys.argv), else $GRADER_LANG or the locale."""
    return _word(key, language_in_args(sys.argv[1:]) or language(), values)


def language_in_args(args: list[str]) -> str | None:
    """The language a `--lang X` or `--lang=X` in `args` names (None: none, or not a language)."""
    found = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            found = args[index + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return normalise(found)


# --------------------------------------------------------------------------- the course

def day_translation(day, lang: str) -> dict:
    """A day's translated titles and hints (<checks_dir>/course.<lang>.toml), or {}."""
    if lang == SOURCE:
        return {}
    return read_toml(Path(day.checks_dir) / f"course.{lang}.toml")


def _check(check, table: Mapping) -> object:
    entry = table.get(check.id) or {}
    title = entry.get("title")
    hints = entry.get("hints")
    usable = isinstance(hints, list) and len(hints) == len(check.hints) and all(isinstance(h, str) for h in hints)
    return replace(check, title=title if isinstance(title, str) and title else check.title,
                   hints=tuple(hints) if usable else check.hints)


def localise_day(day, lang: str | None = None):
    """The Day with its titles and hints in `lang` (English where a translation is missing)."""
    lang = lang or language()
    data = day_translation(day, lang)
    if not data:
        return day
    checks = data.get("checks") or {}
    title = data.get("title") if isinstance(data.get("title"), str) and data.get("title") else day.title
    return replace(day, title=title,
                   checks_core=tuple(_check(c, checks) for c in day.checks_core),
                   checks_bonus=tuple(_check(c, checks) for c in day.checks_bonus))


def localise(course, lang: str | None = None):
    """The Course as a student reads it in `lang`: the course's and days' titles, check
    titles and hints translated. Ids, exercises and paths are untouched. `verify` works
    on the source course (it holds titles equal to the checks' docstrings)."""
    lang = lang or language()
    if lang == SOURCE:
        return course
    top = read_toml(translated(Path(course.root) / "course.toml", lang)).get("course") or {}
    title = top.get("title") if isinstance(top.get("title"), str) and top.get("title") else course.title
    return replace(course, title=title, days=tuple(localise_day(d, lang) for d in course.days))


# --------------------------------------------------------------------------- terminal widths

def char_width(char: str) -> int:
    """Columns one character takes: East Asian wide and fullwidth 2, combining and format 0."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns `text` takes on a terminal (ANSI colour codes not counted)."""
    total, escape = 0, False
    for char in text:
        if escape:
            escape = char != "m"
            continue
        if char == "\033":
            escape = True
            continue
        total += char_width(char)
    return total


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns (str.ljust counts a CJK character as one)."""
    return text + " " * max(0, width - display_width(text))


# Punctuation that must not start a line (closing marks) or end one (opening marks).
_NO_LINE_START = set("，。、；：？！）》」』】〉”’,.;:?!)]}%…·")
_NO_LINE_END = set("（《「『【〈“‘([{")


def _tokens(text: str) -> list[str]:
    """Units that wrap whole: a run of non-wide characters (a word, with its trailing
    spaces), or one wide character; closing punctuation stays with what it follows."""
    tokens: list[str] = []
    for char in text:
        wide = char_width(char) == 2
        if tokens and char in _NO_LINE_START:
            tokens[-1] += char
        elif tokens and tokens[-1] and tokens[-1][-1] in _NO_LINE_END:
            tokens[-1] += char
        elif wide or not tokens or char_width(tokens[-1][-1]) == 2 or tokens[-1][-1] == " ":
            tokens.append(char)
        else:
            tokens[-1] += char
    return tokens


def wrap(text: str, width: int, indent: str = "", first: str = "") -> list[str]:
    """`text` as lines of at most `width` columns: breaks at spaces in Latin text and
    between any two CJK characters (never before a closing mark or after an opening
    one); the first line starts with `first`, the others with `indent`. A word longer
    than a line stays whole on its own line (a path or a command is never split)."""
    lines: list[str] = []
    current, used = first, display_width(first)
    start = used
    for token in _tokens(text):
        size = display_width(token.rstrip(" "))
        if used + size > width and used > start:
            lines.append(current.rstrip(" "))
            current, used = indent, display_width(indent)
            start = used
            token = token.lstrip(" ")
            if not token:
                continue
        current += token
        used += display_width(token)
    lines.append(current.rstrip(" "))
    return lines


# --------------------------------------------------------------------------- the CLI option

def hoist_language(args: list[str]) -> list[str]:
    """`--lang X` (or `--lang=X`) moved to the front, so `grader check day-07 --lang zh`
    means what `grader --lang zh check day-07` does; nothing after `--` is touched."""
    args = list(args)
    head: list[str] = []
    out: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            out += args[index:]
            break
        if arg == "--lang" and index + 1 < len(args):
            head += args[index:index + 2]
            index += 2
            continue
        if arg.startswith("--lang="):
            head.append(arg)
        else:
            out.append(arg)
        index += 1
    return head + out


def language_group():
    """A typer group class that accepts the global `--lang` after the command too."""
    from typer.core import TyperGroup

    class LanguageGroup(TyperGroup):
        def parse_args(self, ctx, args):
            return super().parse_args(ctx, hoist_language(args))

    return LanguageGroup
