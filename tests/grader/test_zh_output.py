"""In Chinese the grader speaks Chinese: no English word is left in what it prints, for
students (check, hint, reset ...) and instructors (release, grade, gradescope, gradebook)
alike, typer's and click's own words included (`Usage:`, the panels, `Missing argument`,
`Aborted.`), and no wrapped help line starts with a closing mark such as `。`.

A Latin word is allowed only where it is not English prose: an id, a command or a code
name (`grader check`, `--lab`, `DAY`, `course.toml`, `day-07`, a quoted or `code` span),
or one of the names below that have no Chinese of their own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.report.results import CheckResult, DayResult
from grader.report.text import render_text

REPO = Path(__file__).resolve().parents[2]

# Names, not English: products, formats, Unix words, the agent's parts, the grader's commands.
NAMES = {
    "grader", "gradescope", "junit", "xml", "json", "jsonl", "csv", "html", "zip", "pid", "ci", "cpu", "linux",
    "root", "unshare", "util", "agent", "mca", "slug", "id", "ids", "locale", "lc", "lang", "zh", "en",
    "stderr", "stdout", "ctrl", "enter", "fork", "seq", "mock", "python", "pytest", "toml", "sha", "git",
    "check", "watch", "hint", "list", "reset", "restore", "verify", "release", "grade", "bundle", "find",
    "lab", "result", "no", "gradebook", "merge", "report", "run_autograder", "autograder", "setup", "bonus",
}
CLOSING = set("，。、；：？！）》」』】〉”’")


def latin_words(text: str) -> list[str]:
    """English words of `text` outside code spans, quotes, options, paths and metavars."""
    text = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"", " ", text)           # code and quoted spans
    found = []
    for token in re.split(r"[\s\u3000-\u303f\uff00-\uffef│╭╮╰╯─*\[\](){}<>,;:|]+", text):
        if not re.search(r"[A-Za-z]{2,}", token):
            continue
        if token.startswith("-") or re.search(r"[./_=$@\\\d]", token) or token.isupper():
            continue                                                     # options, paths, code, DAY, PATH
        words = [w for w in re.findall(r"[A-Za-z]{2,}", token)]
        if all(w.lower() in NAMES for w in words):
            continue
        found.append(token)
    return found


def line_starts(text: str) -> list[str]:
    """Lines whose text (inside a help panel's border too) starts with a closing mark."""
    bad = []
    for line in text.splitlines():
        body = line.strip().strip("│").strip()
        cells = [cell.strip() for cell in re.split(r" {2,}", body) if cell.strip()]
        if any(cell[0] in CLOSING for cell in cells):
            bad.append(line)
    return bad


def grader(*args, cwd=None, course=None, input=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "LC_", "LANG", "GRADER_"))}
    env.update(PYTHONPATH=str(REPO), GRADER_LANG="zh", COLUMNS="80", NO_COLOR="1", TERM="dumb")
    if course is not None:
        env["GRADER_COURSE"] = str(course)
    done = subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd or REPO, env=env, input=input,
                          capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


HELP = [(), ("check",), ("watch",), ("hint",), ("list",), ("reset",), ("restore",), ("verify",), ("release",),
        ("grade",), ("gradescope",), ("gradescope", "bundle"), ("gradescope", "find-lab"),
        ("gradescope", "no-result"), ("gradebook",), ("gradebook", "merge"), ("gradebook", "report")]


@pytest.mark.parametrize("command", HELP, ids=lambda c: " ".join(c) or "grader")
def test_every_help_is_chinese(command):
    out = grader(*command, "--help")
    assert "用法：" in out and "Usage" not in out, out
    assert not latin_words(out), (latin_words(out), out)
    assert not line_starts(out), (line_starts(out), out)


@pytest.mark.parametrize("args", [("hint",), ("check", "1", "--bogus"), ("hint", "1", "a", "b", "c"),
                                  ("gradescope", "bundle"), ("check", "1", "--seed", "x")],
                         ids=" ".join)
def test_usage_errors_are_chinese(args):
    out = grader(*args)
    assert "用法：" in out and "错误" in out, out
    assert not latin_words(out), (latin_words(out), out)


def test_a_refused_confirmation_says_aborted_in_chinese(course_dir):
    (course_dir / "labs/day-01-hello/toy/greet.py").write_text("def greet(name):\n    return 'hi'\n")
    out = grader("reset", "1", course=course_dir / "course.toml", input="")
    assert "已中止" in out and "Aborted" not in out, out
    assert not latin_words(out), (latin_words(out), out)


def test_the_report_title_and_the_watch_head_use_the_chinese_colon(course):
    from grader import i18n

    day = course.find_day("1")
    result = DayResult("day-01", "你好", "/labs/day-01", [CheckResult("runs", "它能启动。", "passed")], seed=7)
    i18n.set_language("zh")
    try:
        text = render_text(result, day)
        assert text.splitlines()[0] == "day-01：你好", text
        head = i18n.word("watch.head", day="day-01", lab="labs/day-01", seed=7)
        assert not latin_words(head), head
    finally:
        i18n.set_language(None)


def test_the_finder_finds_english():
    assert latin_words("Usage: grader check [OPTIONS] DAY") == ["Usage"]
    assert latin_words("│ --out  DIR  where to write the student edition │") == ["where", "to", "write", "the", "student",
                                                                        "edition"]
    assert latin_words("在 `grader check` 里用 --lab DIR，day-07 与 course.toml：'DAY' Gradescope") == []
    assert line_starts("│ --force   替换 DIR 里的东西 │\n│           。那里的其他东西 │") == ["│           。那里的其他东西 │"]


def test_check_without_a_day_says_how_in_chinese(tmp_path):
    out = grader("check", cwd=tmp_path)
    assert "请指定一天" in out and "grader list" in out, out
    assert not latin_words(out), (latin_words(out), out)
