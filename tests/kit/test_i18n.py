"""Chinese and English (issue 14): every catalogue complete in both, the language chosen
as documented, a missing translation said in English, CJK aligned and wrapped by columns.

The completeness tests cover every day of course.toml that has a checks folder with a
`messages.toml`: a new day (days 3-6) is covered as soon as it arrives, and passes once
it brings `messages.zh.toml`, `course.zh.toml` in its checks folder and its sheet's
`<slug>.zh.md` (docs/architecture.md, "Languages").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader import i18n
from grader.checkkit.messages import KIT_MESSAGES, Messages
from grader.cli import app
from grader.course import load_course
from grader.report.results import CheckResult, DayResult
from grader.report.text import render_text

ROOT = Path(__file__).resolve().parents[2]
COURSE = load_course(ROOT / "course.toml")
DAYS_WITH_CATALOGUES = [day for day in COURSE.days if (Path(day.checks_dir) / "messages.toml").is_file()]
TRANSLATIONS = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE]


def _strings(table: dict, prefix: str = "") -> dict[str, str]:
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_strings(value, f"{prefix}{key}."))
        elif isinstance(value, str):
            out[prefix + key] = value
    return out


def _catalogues() -> list[Path]:
    return [i18n.WORDS, KIT_MESSAGES] + [Path(d.checks_dir) / "messages.toml" for d in DAYS_WITH_CATALOGUES]


def test_the_days_translated_so_far_are_covered():
    assert {"day-01", "day-02", "day-07"} <= {d.id for d in DAYS_WITH_CATALOGUES}


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("source", _catalogues(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_exists_in_both_languages_with_the_same_placeholders(source, lang):
    target = i18n.translated(source, lang)
    assert target.is_file(), f"{target.relative_to(ROOT)} is missing: translate {source.relative_to(ROOT)}"
    english, other = _strings(i18n.read_toml(source)), _strings(i18n.read_toml(target))
    assert english, source
    missing, extra = sorted(english.keys() - other.keys()), sorted(other.keys() - english.keys())
    assert not missing, f"{target.relative_to(ROOT)} lacks {missing}"
    assert not extra, f"{target.relative_to(ROOT)} has keys the English does not: {extra}"
    differ = {key: (sorted(i18n.fields(english[key])), sorted(i18n.fields(other[key])))
              for key in english if i18n.fields(english[key]) != i18n.fields(other[key])}
    assert not differ, f"{target.relative_to(ROOT)}: placeholders differ (english, {lang}): {differ}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("day", DAYS_WITH_CATALOGUES, ids=lambda d: d.id)
def test_every_title_and_hint_exists_in_both_languages(day, lang):
    path = Path(day.checks_dir) / f"course.{lang}.toml"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing: {day.id}'s titles and hints in {lang}"
    data = i18n.read_toml(path)
    assert isinstance(data.get("title"), str) and data["title"].strip(), f"{path}: no day title"
    checks = data.get("checks") or {}
    known = {c.id for c in day.all_checks}
    assert not set(checks) - known, f"{path}: checks course.toml does not list: {sorted(set(checks) - known)}"
    for check in day.all_checks:
        entry = checks.get(check.id)
        assert entry, f"{path}: no [checks.{check.id}]"
        assert isinstance(entry.get("title"), str) and entry["title"].strip(), f"{path}: {check.id} has no title"
        hints = entry.get("hints")
        assert isinstance(hints, list) and len(hints) == len(check.hints), \
            f"{path}: {check.id} has {len(hints or [])} hints, course.toml {len(check.hints)}"
        for english, other in zip(check.hints, hints):
            assert other.strip() and other != english, f"{path}: {check.id} has an empty or untranslated hint"
    localised = i18n.localise_day(day, lang)
    assert [c.id for c in localised.all_checks] == [c.id for c in day.all_checks]
    assert all(a.title != b.title for a, b in zip(localised.all_checks, day.all_checks))


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_the_course_title_is_translated(lang):
    assert i18n.localise(COURSE, lang).title != COURSE.title




@pytest.mark.parametrize("day", DAYS_WITH_CATALOGUES, ids=lambda d: d.id)
def test_a_translated_sheet_is_rendered_beside_the_english_one(day):
    sheet = i18n.translated(Path(day.sheet), "zh")
    assert sheet.is_file(), sheet
    text = sheet.read_text(encoding="utf-8")
    english = Path(day.sheet).read_text(encoding="utf-8")
    assert re.search(r"[\u4e00-\u9fff]", text)
    # the same commands to copy: every fenced block of the English sheet is in the Chinese one
    assert text.count("```") == english.count("```"), "the two sheets have different numbers of code fences"
    for lab in (day.lab, day.solution):
        assert (Path(lab) / "README.zh.md").read_bytes() == sheet.read_bytes()


# --------------------------------------------------------------------------- choosing

@pytest.mark.parametrize("env, expected", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "zh_TW.UTF-8", "LC_ALL": "C"}, "en"),        # the first one set decides
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"GRADER_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"GRADER_LANG": "zh"}, "zh"),
    ({"GRADER_LANG": "klingon", "LANG": "zh_CN.UTF-8"}, "zh"),  # not a language: the locale decides
])
def test_language_from_the_environment(env, expected):
    assert i18n.from_environment(env) == expected


def test_lang_option_is_hoisted_from_anywhere():
    assert i18n.hoist_language(["check", "day-07", "--lang", "zh"]) == ["--lang", "zh", "check", "day-07"]
    assert i18n.hoist_language(["check", "--lang=zh", "7"]) == ["--lang=zh", "check", "7"]
    assert i18n.hoist_language(["check", "--", "--lang", "zh"]) == ["check", "--", "--lang", "zh"]


# --------------------------------------------------------------------------- falling back

def test_a_missing_or_broken_translation_is_said_in_english(tmp_path):
    (tmp_path / "messages.toml").write_text('[a]\nx = "x is {x}"\ny = "y is {y}"\nz = "z"\n', encoding="utf-8")
    (tmp_path / "messages.zh.toml").write_text('[a]\nx = "x 是 {x}"\ny = "y 是 {wrong}"\n', encoding="utf-8")
    say = Messages(tmp_path / "messages.toml", lang="zh")
    assert say("a.x", x=1) == "x 是 1"
    assert say("a.y", y=2) == "y is 2"      # a placeholder that does not fit: English
    assert say("a.z") == "z"                # missing: English
    with pytest.raises(KeyError):
        say("a.nope")


def test_a_broken_translation_file_is_ignored(tmp_path):
    (tmp_path / "messages.toml").write_text('[a]\nx = "x"\n', encoding="utf-8")
    (tmp_path / "messages.zh.toml").write_text('[a\nnot toml', encoding="utf-8")
    assert Messages(tmp_path / "messages.toml", lang="zh")("a.x") == "x"


def test_a_day_without_translations_reads_in_english():
    day = COURSE.days[0]
    fake = type(day)(**{**day.__dict__, "checks_dir": Path("/nonexistent")})
    assert i18n.localise_day(fake, "zh") == fake


# --------------------------------------------------------------------------- widths

def test_display_width_counts_wide_characters_twice():
    assert i18n.display_width("abc") == 3
    assert i18n.display_width("预期：") == 6
    assert i18n.display_width("\033[31m失败\033[0m") == 4
    assert i18n.display_width("e\u0301") == 1
    assert i18n.pad("实际：", 8) == "实际：  "


def test_wrap_breaks_cjk_by_columns_and_latin_at_spaces():
    text = "预期读取停在第 8 行（the last line cut inside a character），但它返回了 7 个事件，什么也没报告"
    lines = i18n.wrap(text, 30, indent="  ")
    assert all(i18n.display_width(line) <= 30 for line in lines), lines
    assert "".join(part.strip() for part in lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.strip()[0] in "，。）：" for line in lines[1:])  # no closing mark starts a line
    assert i18n.wrap("a-very-long-command --with-options", 10) == ["a-very-long-command", "--with-options"]


def _result(lang_title: str) -> DayResult:
    check = CheckResult(id="torn-tail", title=lang_title, status="failed", message="m", expected="e",
                        seen="s", hint="h", hint_level=1, hint_levels=2, exercises=("E3",))
    return DayResult(day_id="day-07", title="t", lab="/lab", checks=(check,), seed=7)


def test_the_text_report_aligns_expected_and_seen_in_both_languages(monkeypatch):
    day = COURSE.find_day("day-07")
    i18n.set_language("en")
    english = render_text(_result("T"), day)
    assert "       expected: e\n       seen:     s\n       hint: h\n" in english
    assert "0/1 passed\nnext: E3 in mca/session/log.py (fixes 1 check)" in english
    i18n.set_language("zh")
    try:
        chinese = render_text(_result("标题"), day)
    finally:
        i18n.set_language("en")
    assert "       预期：e\n       实际：s\n       提示：h\n" in chinese
    assert "0/1 项通过" in chinese and "下一步：" in chinese and "输入：种子 7" in chinese
    expected, seen = (line for line in chinese.splitlines() if line.strip().startswith(("预期", "实际")))
    assert i18n.display_width(expected.split("：")[0]) == i18n.display_width(seen.split("：")[0])


# --------------------------------------------------------------------------- the real run

@pytest.fixture
def cli(monkeypatch):
    for name in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()

    def run(*args, env=None):
        result = runner.invoke(app, [str(a) for a in args], env=env)
        i18n.set_language(None)
        return result
    return run


def test_list_and_hint_in_chinese_by_the_locale(cli):
    listed = cli("list", env={"LANG": "zh_CN.UTF-8"})
    assert listed.exit_code == 0 and "会话持久化" in listed.stdout
    english = cli("list", env={"LANG": "en_US.UTF-8"})
    assert "Session persistence" in english.stdout and "会话" not in english.stdout
    unknown = cli("--lang", "zh", "hint", "day-07", "nope")
    assert unknown.exit_code == 2 and "没有名为 'nope' 的检查" in unknown.stderr
    bad = cli("list", "--lang", "fr")
    assert bad.exit_code == 2 and "zh or en" in bad.stderr


def test_check_day_07_in_chinese_scores_as_in_english(cli, tmp_path):
    """The untouched lab in Chinese: the same 4/11 and exit 1, every word of the report in
    Chinese, and the JSON of the same run with the same keys, ids and statuses."""
    out = tmp_path / "result.json"
    result = cli("check", "day-07", "--lang", "zh", "--seed", "42", "--ci", "--gradescope", out)
    assert result.exit_code == 1, result.stderr
    text = result.stdout
    assert "4/11 项通过" in text and "附加题 4/9" in text, text[-400:]
    assert "下一步：mca/session/replay.py 里的 E2（改好可通过 2 项检查）" in text
    assert "输入：种子 42" in text and "实际：" in text and "提示：" in text and "先看：" in text
    for english in ("passed", "next:", "hint:", "seen:", "expected:", "more:", "bonus"):
        assert english not in text.replace("grader hint", ""), english
    assert "会话持久化" in text.splitlines()[0]
    scored = json.loads(out.read_text(encoding="utf-8"))
    assert scored["score"] == 4 and "项通过" in scored["output"]


def test_json_keys_ids_and_statuses_do_not_change_with_the_language(cli):
    runs = {lang: cli("check", "day-07", "--json", "--seed", "5", "--only", "session-id", "--only", "replay-counts",
                      "--lang", lang) for lang in ("en", "zh")}
    data = {lang: json.loads(run.stdout) for lang, run in runs.items()}
    assert runs["en"].exit_code == runs["zh"].exit_code == 1

    def shape(value):
        if isinstance(value, dict):
            return {key: shape(item) for key, item in value.items() if key not in ("duration",)}
        if isinstance(value, list):
            return [shape(item) for item in value]
        return type(value).__name__

    assert shape(data["en"]) == shape(data["zh"])
    for one, other in zip(data["en"]["checks"], data["zh"]["checks"]):
        assert (one["id"], one["status"], one["exercises"]) == (other["id"], other["status"], other["exercises"])
    assert data["zh"]["checks"][1]["hint"] != data["en"]["checks"][1]["hint"]
    assert "桩代码" in data["zh"]["checks"][1]["message"]


# --------------------------------------------------------------------------- no English left

# What a Chinese report may hold in Latin script: code and quotes, paths and file names,
# ids, and what the lab itself raised (its stubs' TODO texts are the lab's own words).
_NOT_PROSE = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|“[^”]*”|<[^>]*>|\S*[/\\]\S*"
                        r"|\S+\.(?:py|toml|md|json|jsonl|txt)\b|https?://\S+|\b\w+(?:Error|Exception): .*")
_ENGLISH_RUN = re.compile(r"(?<![\w.-])[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){3,}(?![\w.-])")


def english_sentences(text: str, ids=()) -> list[str]:
    """Runs of four or more English words in `text`, once code, quotes, paths, ids and
    the lab's own exception texts are taken out."""
    text = _NOT_PROSE.sub(" § ", text)
    for one in sorted(ids, key=len, reverse=True):
        text = text.replace(one, " § ")
    return _ENGLISH_RUN.findall(text)


def test_the_english_detector_finds_a_sentence_and_spares_code():
    assert english_sentences("预期回复在工具运行之后才到：the reply came too early") == ["the reply came too early"]
    assert english_sentences("对 `read the file now please` 调用 read_file，grader hint day-03 list-and-grep") == []
    assert english_sentences("replay() 还是桩代码：NotImplementedError: TODO(E2): rebuild the message list") == []
    assert english_sentences("拒绝了 'deny run_command rm -rf *'，见 mca/tools/shell.py 和 a-b c-d e-f g-h") == []


@pytest.mark.parametrize("day_id, which", [("day-03", "lab"), ("day-03", "solution"), ("day-05", "lab")])
def test_a_chinese_report_has_no_english_sentence(cli, day_id, which):
    """A day graded in Chinese, the untouched lab (its failures' messages) and the solution:
    no title, message, hint or line of the report's own holds four English words in a row
    outside code, paths, ids and the lab's output (the `seen:` lines and what it raised).
    Before the checks' phrases were catalogue keys, day-05's lab failed here (its rule
    cases were described in English inside the Chinese message)."""
    day = COURSE.find_day(day_id)
    lab = day.lab if which == "lab" else day.solution
    runs = {kind: cli("check", day_id, "--lab", lab, "--seed", "11", "--lang", "zh", *flags)
            for kind, flags in (("json", ("--json",)), ("text", ()))}
    assert runs["json"].exit_code == runs["text"].exit_code == (1 if which == "lab" else 0), runs["text"].stderr
    data = json.loads(runs["json"].stdout)
    ids = [c["id"] for c in data["checks"]] + [x.id for x in day.exercises]
    found = {}
    for check in data["checks"]:
        for field in ("title", "message", "hint"):
            runs_of_words = english_sentences(check.get(field) or "", ids)
            if runs_of_words:
                found[f"{check['id']}.{field}"] = runs_of_words
    in_value = False  # an `expected:` or `seen:` value, its own lines included: the lab's and the mock's texts
    for number, line in enumerate(runs["text"].stdout.splitlines()):
        if line.strip().startswith(("实际：", "预期：")) or (in_value and line.strip() and not line.startswith(" ")):
            in_value = True
            continue
        in_value = False
        runs_of_words = english_sentences(line, ids)
        if runs_of_words:
            found[f"line {number + 1}"] = runs_of_words
    assert not found, found
    assert "项通过" in runs["text"].stdout


def test_every_placeholder_is_a_name():
    """A literal brace in a catalogue is doubled: `{"error": ...}` would be read as a
    placeholder named '"error"' and break the message it is in (KeyError at run time)."""
    for source in _catalogues():
        for lang in i18n.LANGUAGES:
            path = i18n.translated(source, lang)
            for key, text in _strings(i18n.read_toml(path)).items():
                odd = [name for name in i18n.fields(text) if not re.fullmatch(r"[A-Za-z_]\w*", name)]
                assert not odd, f"{path.relative_to(ROOT)} {key}: {odd} (write a literal brace as {{{{ or }}}})"


def test_help_speaks_the_language_of_lang_or_the_environment():
    """--help is built when the commands are defined: from --lang on the command line, else
    GRADER_LANG; CJK wraps inside the help's columns instead of being cut with an ellipsis."""
    import os
    import subprocess
    import sys

    def help_of(*args, lang=None):
        env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
        env.update(COLUMNS="80", **({"GRADER_LANG": lang} if lang else {}))
        done = subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True,
                              encoding="utf-8", env=env, cwd=ROOT, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    english = help_of("check", "--help")
    assert "Run a day's checks against your lab" in english and "对你的实验" not in english
    for chinese in (help_of("check", "--help", lang="zh"), help_of("check", "--help", "--lang", "zh", lang="en")):
        flat = re.sub(r"[\s│]", "", chinese)
        assert "对你的实验运行这一天的检查" in flat and "显示这条帮助并退出" in flat
        assert "只有这一天自己的实验才会记录进度和提示级别" in flat, chinese  # wrapped, not cut
        assert "…" not in chinese
        assert all(i18n.display_width(line) <= 80 for line in chinese.splitlines())
