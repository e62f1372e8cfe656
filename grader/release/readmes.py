"""The students' README.md and its translations, from the kit's templates (install, check,
hints, reset, and a table of the released days)."""

from __future__ import annotations

from pathlib import Path

import grader
from grader.course import Course
from grader.i18n import LANGUAGES, SOURCE, catalogue_chain, localise, lookup, read_toml, word
from grader.release.layout import README_TEMPLATE, ReleaseError


def _word_in(lang: str, key: str, **values) -> str:
    tables = [read_toml(p) for p in catalogue_chain(Path(grader.__file__).with_name("words.toml"), lang=lang)]
    text = lookup(tables, key, values)
    if text is None:
        raise KeyError(key)
    return text


def _kit_relative(course: Course, path) -> str:
    return Path(path).resolve().relative_to(Path(course.root).resolve()).as_posix()


def _sheet_names(lang: str) -> list[str]:
    """A lab's sheets, the reader's language first: README.md / README.zh.md."""
    own = "README.md" if lang == SOURCE else f"README.{lang}.md"
    return [own] + [name for name in ["README.md"] + [f"README.{x}.md" for x in LANGUAGES if x != SOURCE]
                    if name != own]


def student_readmes(course: Course, days, sheet_names: dict[str, set[str]] | None = None) -> dict[str, str]:
    """README.md and its translations (README.<lang>.md), from the kit's templates: how to
    install, check, read hints and reset, and a table of the released days. `sheet_names`:
    which sheets each day's lab has (default: what is in its lab folder)."""
    if sheet_names is None:
        sheet_names = {d.id: {p.name for p in Path(d.lab).glob("README*.md")} for d in days}
    out = {}
    for lang in LANGUAGES:
        template = README_TEMPLATE if lang == SOURCE else README_TEMPLATE.with_name(f"README.{lang}.md")
        if not template.is_file():
            continue
        shown = localise(course, lang)
        titles = {d.id: d.title for d in shown.days}
        last = days[-1]
        rows = []
        for day in days:
            lab = _kit_relative(course, day.lab)
            core, bonus = len(day.checks_core), len(day.checks_bonus)
            checks = _word_in(lang, "release.readme_checks_bonus" if bonus else "release.readme_checks",
                              core=core, bonus=bonus)
            sheets = [name for name in _sheet_names(lang) if name in sheet_names.get(day.id, ())]
            links = f"[`{day.slug}`]({lab}/{sheets[0]})" if sheets else f"`{day.slug}`"
            if len(sheets) > 1:
                links += f" ([{_word_in(lang, 'release.readme_other')}]({lab}/{sheets[1]}))"
            rows.append(f"| {day.number} | {links} | {titles[day.id]} | {checks} |")
        values = {"title": shown.title, "name": course.name, "day": last.id, "package": course.agent.package,
                  "mock": " ".join(f"{k}={v}" for k, v in course.agent.mock_env.items()),
                  "prefix": course.agent.env_prefix,
                  "lab": _kit_relative(course, last.lab),
                  "passes": f"{last.scaffold_passes}/{len(last.checks_core)}",
                  "check": (last.checks_core[0].id if last.checks_core else "CHECK"),
                  "days": "\n".join(rows)}
        text = template.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace("{{" + key + "}}", value)
        if "{{" in text:
            raise ReleaseError(word("release.template_field", template=template,
                                    field=text[text.index("{{"):text.index("{{") + 20]))
        out["README.md" if lang == SOURCE else f"README.{lang}.md"] = _align_comments(text)
    return out


def _align_comments(text: str) -> str:
    """The `#` comments of each ```sh block in one column again (the values put in for
    {{day}} and {{check}} are not as long as the placeholders)."""
    out, block = [], []
    for line in text.splitlines(keepends=True):
        if block:
            block.append(line)
            if line.startswith("```"):
                out += _aligned(block)
                block = []
        elif line.startswith("```sh"):
            block = [line]
        else:
            out.append(line)
    return "".join(out + block)


def _aligned(block: list[str]) -> list[str]:
    from grader.i18n import display_width

    split = [(line.split("  #", 1) if "  #" in line else None) for line in block]
    commands = [part[0].rstrip() for part in split if part]
    if len(commands) < 2:
        return block
    column = max(display_width(c) for c in commands) + 2
    return [line if part is None else part[0].rstrip() + " " * (column - display_width(part[0].rstrip()))
            + "#" + part[1] for line, part in zip(block, split)]
