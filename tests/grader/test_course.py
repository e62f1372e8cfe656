"""The manifest loader: a good course loads; each kind of broken one is refused
with a message that names the file, the entry and the fix."""

from __future__ import annotations

import pytest

from grader.course import CourseError, find_course, load_course

from .conftest import manifest


def test_loads_days_exercises_and_checks_in_order(course, course_dir):
    assert course.name == "mini" and course.root == course_dir
    day = course.days[0]
    assert (day.id, day.slug, day.scaffold_passes) == ("day-01", "day-01-hello", 1)
    assert day.lab == course_dir / "labs/day-01-hello"
    assert day.checks_dir == course_dir / "checks/day01" and day.checks_module.name == "checks.py"
    assert (day.number, course.source, course.agent.package) == (1, course_dir / "source", "toy")
    assert dict(course.agent.mock_env) == {"TOY_MOCK": "1"} and course.runtime_dirs == {".toystate"}
    assert [c.id for c in day.checks_core] == ["runs", "greets", "counts"]
    assert [c.id for c in day.checks_bonus] == ["polite"]
    assert day.check("greets").exercises == ("E1",)
    assert day.check("greets").hints[0] == "look closer"
    assert [(x.id, x.kind) for x in day.exercises] == [("E1", "todo"), ("E2", "trap")]


@pytest.mark.parametrize("text", ["day-01", "01", "1", "day-01-hello", "DAY-01"])
def test_find_day_accepts_id_number_and_slug(course, text):
    assert course.find_day(text).id == "day-01"


def test_find_day_unknown_lists_known_days(course):
    with pytest.raises(CourseError, match=r"unknown day '9'\. Known days: day-01, day-02"):
        course.find_day("9")


def _replace(old: str, new: str, count: int = 1) -> str:
    text = manifest()
    assert old in text, old
    return text.replace(old, new, count)


BROKEN = {
    "toml syntax": ("title = \"Hello\"", "title = \"Hello", ["not valid TOML", "(at line "]),
    "format missing": ("format_version = 2\n", "", ["missing `format_version`", "format_version = 2"]),
    "format wrong": ("format_version = 2", "format_version = 1", ["format_version is 1", "reads 2"]),
    "missing key": ('slug = "day-01-hello"\n', "", ["day 'day-01'", "missing key `slug`", "add `slug"]),
    "wrong type": ("scaffold_passes = 1", 'scaffold_passes = "one"', ["`scaffold_passes` must be an integer"]),
    "duplicate day": ('id = "day-02"', 'id = "day-01"', ["duplicate day id 'day-01'", "unique"]),
    "duplicate exercise": ('id = "E2"', 'id = "E1"', ["duplicate exercise id 'E1'"]),
    "duplicate check": ('id = "counts"', 'id = "greets"', ["duplicate check id 'greets'"]),
    "unknown exercise": ('exercises = ["E2"]', 'exercises = ["E9"]',
                         ["check 'counts'", "exercise point 'E9'", "use one of: E1, E2"]),
    "missing source": ('source = "source"', 'source = "nope"',
                       ["`source` names", "nope", "not an existing directory"]),
    "day id without a number": ('id = "day-02"', 'id = "day-two"', ["does not end in the day's number"]),
    "agent package": ('package = "toy"', 'package = "to-y"', ["is not a Python package name"]),
    "missing exercise file": ('file = "toy/count.py"', 'file = "toy/counter.py"',
                              ["exercise 'E2'", "toy/counter.py", "does not exist"]),
    "bad kind": ('kind = "trap"', 'kind = "puzzle"', ["kind 'puzzle'", 'kind = "todo"']),
    "empty hints": ('hints = ["look closer", "the concept", "almost the answer"]', "hints = []",
                    ["check 'runs'", "has no hints"]),
    "unknown key": ('scaffold_passes = 1', 'scaffold_passes = 1\nscafold = 2', ["unknown key `scafold`"]),
    # the format-1 key is named with its successor
    "old checks_module key": ('checks_dir = "checks/day01"', 'checks_module = "checks/day01.py"',
                              ["unknown key `checks_module`", "`checks_dir"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_manifest_is_refused_with_file_entry_and_fix(course_dir, case):
    old, new, fragments = BROKEN[case]
    path = course_dir / "course.toml"
    path.write_text(_replace(old, new), encoding="utf-8")
    with pytest.raises(CourseError) as caught:
        load_course(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert "Fix" in message


def test_checks_dir_defaults_to_grader_checks_day_nn(course_dir):
    path = course_dir / "course.toml"
    path.write_text(manifest().replace('checks_dir = "checks/day01"\n', ""), encoding="utf-8")
    assert load_course(path).days[0].checks_dir == course_dir / "grader/checks/day01"


def test_unreadable_manifest_names_the_file(tmp_path):
    with pytest.raises(CourseError, match="cannot read the manifest"):
        load_course(tmp_path / "course.toml")


def test_find_course_prefers_explicit_then_env_then_upward(course_dir, tmp_path, monkeypatch):
    assert find_course(course_dir) == course_dir / "course.toml"
    assert find_course() == (course_dir / "course.toml").resolve()  # $GRADER_COURSE
    monkeypatch.delenv("GRADER_COURSE")
    nested = course_dir / "labs" / "day-01-hello" / "toy"
    monkeypatch.chdir(nested)
    assert find_course() == course_dir / "course.toml"
    with pytest.raises(CourseError, match="no such manifest"):
        find_course(tmp_path / "nowhere" / "course.toml")
