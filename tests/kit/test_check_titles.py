"""A check's title is written once, as one sentence: its docstring is the student's sentence,
`course.toml` holds the same words, the day's `course.zh.toml` its translation; the details
of what a check holds go in its hint levels, not into its title."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader import i18n
from grader.course import load_course

ROOT = Path(__file__).resolve().parents[2]
COURSE = load_course(ROOT / "course.toml")
OPENING, CLOSING = "([{“‘（「", ")]}”’）」"


def top_level(text: str) -> str:
    """`text` without what is inside brackets, quotes and `code` (where a semicolon or a full stop
    is an example, not a sentence's end)."""
    kept, depth, code, quoted = [], 0, False, False
    for char in text:
        if char == "`":
            code = not code
        elif char == '"' and not code:
            quoted = not quoted
        elif not code and not quoted and char in OPENING:
            depth += 1
        elif not code and not quoted and char in CLOSING:
            depth = max(0, depth - 1)
        elif not (code or quoted or depth):
            kept.append(char)
            continue
        kept.append(" ")
    return "".join(kept)


def one_sentence(text: str, lang: str) -> str | None:
    """Why `text` is not one sentence, or None."""
    body = top_level(text.strip())
    end = "。" if lang == "zh" else "."
    if not text.strip().endswith(end):
        return f"does not end with {end!r}"
    inner = body.rstrip()[:-1]
    breaks = ("。", "；", "！", "？") if lang == "zh" else ("; ", ". ", "! ", "? ")
    found = [mark for mark in breaks if mark in inner]
    return f"holds {found} outside brackets, quotes and code: more than one sentence" if found else None


def docstrings(checks_dir: Path) -> dict[str, str]:
    found = {}
    for path in sorted(checks_dir.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found[node.name] = (ast.get_docstring(node) or "").strip()
    return found


@pytest.mark.parametrize("day", COURSE.days, ids=lambda d: d.id)
def test_a_title_is_its_checks_docstring_word_for_word(day):
    docs = docstrings(Path(day.checks_dir))
    for check in day.all_checks:
        name = "test_" + check.id.replace("-", "_")
        assert name in docs, f"{day.id}: no {name} in {day.checks_dir}"
        assert docs[name] == check.title.strip(), f"{day.id} {check.id}: course.toml's title is not the docstring"


@pytest.mark.parametrize("day", COURSE.days, ids=lambda d: d.id)
def test_every_title_is_one_sentence_in_every_language(day):
    translated = i18n.read_toml(Path(day.checks_dir) / "course.zh.toml").get("checks") or {}
    assert set(translated) == {c.id for c in day.all_checks}, f"{day.id}: course.zh.toml lists other checks"
    problems = []
    for check in day.all_checks:
        for lang, title in (("en", check.title), ("zh", translated[check.id].get("title") or "")):
            why = one_sentence(title, lang)
            if why:
                problems.append(f"{check.id} ({lang}) {why}: {title[:80]}")
    assert not problems, f"{day.id}: " + "; ".join(problems)


def test_the_sentence_rule_tells_a_paragraph_from_a_sentence():
    assert one_sentence("A reply is shown once (even with `a; b`) and exits 0.", "en") is None
    assert one_sentence("It reads the file; a bad line stops it.", "en")
    assert one_sentence("It reads the file. A bad line stops it.", "en")
    assert one_sentence("它读文件（包括“a；b”），以 0 退出。", "zh") is None
    assert one_sentence("它读文件；坏行让它停下。", "zh")
    assert one_sentence("no full stop", "en") == "does not end with '.'"
