"""Renderers of one DayResult: text, JSON schema, JUnit, Gradescope, GitHub."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from grader.report import github, gradescope, junit
from grader.report.json import render_json
from grader.report.results import CheckResult, DayResult
from grader.report.text import can_encode, next_exercise, render_text


@pytest.fixture
def result():
    checks = [
        CheckResult("runs", "The runs check.", "passed", duration=0.1),
        CheckResult("greets", "The greets check.", "failed", message="greet failed", expected="hello Ann",
                    seen="hi", hint="look closer", hint_level=1, hint_levels=3, exercises=("E1",),
                    repro=("cd /x && python -m toy greet Ann",)),
        CheckResult("counts", "The counts check.", "timeout", message="took too long", hint="the last word",
                    hint_level=3, hint_levels=3, exercises=("E2",)),
        CheckResult("both", "The both check.", "error", message="the check itself broke: KeyError",
                    hint="look closer", exercises=("E1", "E2")),
        CheckResult("later", "The later check.", "skipped", message="dependency failed", exercises=("E1",)),
    ]
    bonus = [CheckResult("polite", "The polite check.", "passed", bonus=True, exercises=("E1",))]
    return DayResult("day-01", "Hello", "/labs/day-01", checks, bonus,
                     {"python": "3.11.7", "platform": "linux", "grader": "0.1.0"}, 1.5, seed=1234)


def test_text_report_lines_summary_and_next(result, course):
    text = render_text(result, course.find_day("1"))
    lines = text.splitlines()
    assert lines[2] == "inputs: seed 1234 (grader check day-01 --seed 1234 repeats them)"
    assert " ✓  1 runs    The runs check." in lines
    assert " ✗  2 greets  The greets check." in lines
    assert "       expected: hello Ann" in lines and "       seen:     hi" in lines
    assert "       more: grader hint day-01 greets" in lines
    assert "       timeout: took too long" in lines and "       hint: the last word" in lines
    assert "more: grader hint day-01 counts" not in text  # every level already shown
    assert "reproduce:" not in text
    assert "1/5 passed   bonus 1/1" in lines
    assert lines[-1] == "next: E1 in toy/greet.py (fixes 3 checks)"


def test_text_report_ascii_colour_and_keep(result, course):
    text = render_text(result, course.find_day("1"), unicode=False, colour=True, keep=True)
    assert "✓" not in text and "✗" not in text
    assert "+ \033[0m" not in text and "\033[32m+\033[0m" in text and "\033[31mx\033[0m" in text
    assert "reproduce: cd /x && python -m toy greet Ann" in text
    assert not can_encode("ascii") and can_encode("utf-8")


def test_next_exercise_is_none_when_nothing_maps(course):
    day = course.find_day("1")
    clean = DayResult("day-01", "Hello", "/lab", [CheckResult("runs", "t", "failed")])
    assert next_exercise(clean, day) is None


def test_json_schema_keys_and_types(result):
    data = json.loads(render_json(result))
    assert data["schema"] == "agent-lab/check-result" and data["version"] == 1
    assert data["seed"] == 1234 and data["blocked"] is None
    expected_types = {"day": str, "lab": str, "python": str, "passed": int, "total": int,
                      "bonus_passed": int, "bonus_total": int, "checks": list}
    for key, kind in expected_types.items():
        assert isinstance(data[key], kind), key
    assert (data["passed"], data["total"], data["bonus_passed"], data["bonus_total"]) == (1, 5, 1, 1)
    assert [c["id"] for c in data["checks"]] == ["runs", "greets", "counts", "both", "later", "polite"]
    check_types = {"id": str, "title": str, "status": str, "message": str, "duration": float,
                   "bonus": bool, "exercises": list, "see_first": list, "repro": list}
    for check in data["checks"]:
        assert set(check) == {"id", "title", "status", "message", "expected", "seen", "duration", "bonus",
                              "exercises", "see_first", "hint", "hint_level", "hint_levels", "repro"}
        for key, kind in check_types.items():
            assert isinstance(check[key], kind), (check["id"], key)
        assert check["expected"] is None or isinstance(check["expected"], str)
        assert check["status"] in ("passed", "failed", "error", "timeout", "skipped")


def test_junit_parses_back_one_testcase_per_check(result, tmp_path):
    path = tmp_path / "junit.xml"
    junit.write_junit(result, path)
    suite = ET.parse(path).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == \
        ("6", "2", "1", "1")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert list(cases) == ["runs", "greets", "counts", "both", "later", "polite"]
    assert len(list(cases["runs"])) == 0
    failure = cases["greets"].find("failure")
    assert failure.get("message") == "greet failed" and "expected: hello Ann" in failure.text
    assert cases["counts"].find("failure").get("type") == "timeout"
    assert cases["both"].find("error") is not None and cases["later"].find("skipped") is not None
    assert cases["polite"].get("classname") == "day-01.bonus"


def test_gradescope_totals(result, tmp_path):
    path = tmp_path / "results.json"
    gradescope.write_gradescope(result, path)
    data = json.loads(path.read_text())
    assert (data["score"], data["max_score"]) == (1, 5)
    assert sum(t["score"] for t in data["tests"]) == data["score"]
    assert sum(t["max_score"] for t in data["tests"]) == 5
    greets = next(t for t in data["tests"] if t["name"] == "greets")
    assert greets["score"] == 0 and "hint: look closer" in greets["output"]
    assert next(t for t in data["tests"] if t["name"] == "bonus: polite")["max_score"] == 0


def test_github_annotations_and_summary(result, tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    lines = []
    github.emit(result, lines.append)
    assert len(lines) == 3  # greets, counts, both (passed and skipped are not annotated)
    assert lines[0].startswith("::error title=day-01 greets (failed)::greet failed%0Aexpected: hello Ann")
    text = summary.read_text()
    assert text.startswith("earlier step\n")  # appended, not overwritten
    assert "| greets | failed | greet failed |" in text and "1/5 passed" in text


def test_github_annotations_point_at_the_exercise_file(result, course, tmp_path):
    day = course.find_day("1")
    lab = tmp_path / "repo" / "labs" / "day-01"
    files = github.exercise_files(day, lab, env={"GITHUB_WORKSPACE": str(tmp_path / "repo")})
    assert files["greets"] == "labs/day-01/toy/greet.py"
    lines = github.annotations(result, files)
    assert lines[0].startswith("::error file=labs/day-01/toy/greet.py,title=day-01 greets (failed)::")
    assert github.exercise_files(day, tmp_path / "elsewhere", env={"GITHUB_WORKSPACE": str(lab)}) == {}


def test_github_is_silent_outside_actions(result, monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    lines = []
    github.emit(result, lines.append)
    assert lines == []


def test_a_lab_that_cannot_start_folds_its_skipped_checks_and_names_the_line(course):
    why = "the lab could not start: importing toy failed: SyntaxError: invalid syntax (toy/greet.py, line 37)"
    skipped = dict(status="skipped", message="not run: the lab could not start (see above)")
    result = DayResult("day-01", "Hello", "/lab", [CheckResult("runs", "The runs check.", **skipped),
                                                   CheckResult("greets", "The greets check.", exercises=("E1",), **skipped)],
                       [CheckResult("polite", "The polite check.", bonus=True, **skipped)], blocked=why)
    text = render_text(result, course.find_day("1"))
    assert text.count("not run") == 0 and text.count("skipped: none of these 3 checks ran") == 1, text
    assert text.splitlines()[-1] == "next: fix toy/greet.py line 37", text
    assert why in text and " -  1 runs" in text and " -  * polite" in text


def test_a_size_is_never_wrapped_between_its_number_and_its_unit():
    from grader.report.text import wrap

    text = "backup 20261129T102233Z of day-01, made 2026-11-29 10:22:33 UTC, 12 files, 56.0 kB (the lab was edited)"
    for width in range(30, 121):
        lines = wrap(text, width, "  ", "    ")
        assert not any(line.rstrip().endswith("56.0") for line in lines), (width, lines)
        assert " ".join(line.strip() for line in lines) == text.strip()
