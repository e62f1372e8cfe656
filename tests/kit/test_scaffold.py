"""The generator: one source in, every day's solution and lab out; drift is named."""
from __future__ import annotations

import os
import shutil

import pytest

from grader import scaffold
from grader.scaffold import trees
from grader.scaffold.markers import MarkerError

from .conftest import MOD, make_course, write


def test_each_day_gets_its_own_solution_and_lab(two_day_course):
    day1, day2 = two_day_course.days
    lab1, sol1 = (day1.lab / "pkg/mod.py").read_text(), (day1.solution / "pkg/mod.py").read_text()
    assert 'raise NotImplementedError("TODO(E1): return one")' in lab1 and "return 2.0" in lab1
    assert "    return 1\n" in sol1 and "    return 2\n" in sol1 and "TODO" not in sol1
    for text in (lab1, sol1):                       # nothing of day 2 on day 1
        assert "three" not in text and "BEGIN" not in text and "[day" not in text
    assert not (day1.lab / "pkg/later.py").exists() and not (day1.solution / "pkg/later.py").exists()
    lab2 = (day2.lab / "pkg/mod.py").read_text()
    assert "    return 1\n" in lab2 and "    return 2\n" in lab2     # day 1's answers are given on day 2
    assert "TODO(E1): return three" in lab2 and "return answer" not in lab2
    assert "return answer" in (day2.solution / "pkg/mod.py").read_text()
    assert (day2.lab / "pkg/later.py").read_text().startswith('"""A module that exists from day 2 on."""')
    assert (day1.lab / "README.md").read_text() == "# day 1 sheet\n"
    assert (day2.solution / "README.md").read_text() == "# day 2 sheet\n"


def test_revert_builds_a_solution_with_one_point_as_its_scaffold(two_day_course):
    day2 = two_day_course.days[1]
    tree, _ = scaffold.build(two_day_course, day2, lab=False, revert={"E1"})
    assert b"TODO(E1): return three" in tree["pkg/mod.py"] and b"    return 1\n" in tree["pkg/mod.py"]
    with pytest.raises(scaffold.ScaffoldError, match="day-02 has no region for E9"):
        scaffold.build(two_day_course, day2, lab=False, revert={"E9"})


def test_files_are_copied_byte_for_byte_with_their_modes(tmp_path):
    raw = bytes(range(256)) * 4
    course = make_course(tmp_path, files={
        "pkg/mod.py": MOD, "pkg/plain.py": "x = 1\r\ny = 2",   # CRLF, no final newline
        "data/blob.bin": raw, "run.sh": "#!/bin/sh\necho hi\n",
        "pkg/__pycache__/mod.cpython-311.pyc": "junk", "pkg/stale.pyc": "junk", ".grader/state.json": "{}",
    }, generate=False)
    os.chmod(course.source / "run.sh", 0o755)
    day = course.days[0]
    scaffold.generate(course, day)
    assert trees.tree_files(day.lab) == ["README.md", "data/blob.bin", "pkg/mod.py", "pkg/plain.py", "run.sh"]
    assert (day.lab / "data/blob.bin").read_bytes() == raw
    assert (day.lab / "pkg/plain.py").read_bytes() == b"x = 1\r\ny = 2"
    assert os.stat(day.lab / "run.sh").st_mode & 0o111


def test_generate_replaces_the_trees_and_leaves_no_staging(course):
    day = course.days[0]
    write(day.lab, {"extra.py": "x\n"})
    (day.lab / "pkg/mod.py").write_text("edited\n")
    scaffold.generate(course, day)
    assert scaffold.diff(course, day) == []
    assert not (day.lab / "extra.py").exists()
    assert sorted(p.name for p in day.lab.parent.iterdir()) == [day.lab.name]


def test_broken_source_leaves_the_trees_alone(course):
    day = course.days[0]
    before = trees.read_tree(day.lab), trees.read_tree(day.solution)
    (course.source / "pkg/mod.py").write_text("# BEGIN SOLUTION day-01 E1\nx\n")
    with pytest.raises(MarkerError):
        scaffold.generate(course, day)
    assert (trees.read_tree(day.lab), trees.read_tree(day.solution)) == before


def test_no_drift_right_after_generation_and_runtime_junk_is_ignored(course):
    day = course.days[0]
    write(day.lab, {"pkg/__pycache__/mod.cpython-311.pyc": "x", ".sessions/s.jsonl": "{}\n"})
    assert course.runtime_dirs == {".sessions"}    # the agent's own run-time dir (course.toml)
    assert scaffold.diff(course, day) == []
    write(day.lab, {".my-cache/x": "y"})
    assert [d.path for d in scaffold.diff(course, day)] == ["lab: .my-cache/x"]


def test_drift_names_tree_file_kind_and_line(course):
    day = course.days[0]
    text = (day.lab / "pkg/mod.py").read_text().replace("return 2.0", "return 2")
    (day.lab / "pkg/mod.py").write_text(text)
    (day.solution / "README.md").unlink()
    (day.lab / "notes.txt").write_text("mine\n")
    drift = {d.path: d for d in scaffold.diff(course, day)}
    assert set(drift) == {"lab: pkg/mod.py", "solution: README.md", "lab: notes.txt"}
    expected_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("return 2 "))
    assert drift["lab: pkg/mod.py"].kind == "differs" and drift["lab: pkg/mod.py"].line == expected_line
    assert f"from line {expected_line}" in str(drift["lab: pkg/mod.py"])
    assert drift["solution: README.md"].kind == "missing" and drift["lab: notes.txt"].kind == "extra"


def test_day_regions_by_id_with_file_and_line(two_day_course):
    found = scaffold.day_regions(two_day_course, two_day_course.days[0])
    assert sorted(found) == ["E1", "E2"]
    assert (found["E1"].file, found["E1"].start_line) == ("pkg/mod.py", 5)
    assert "TODO(E1)" in found["E1"].scaffold_text and found["E1"].solution_text == "    return 1\n"
    later = scaffold.day_regions(two_day_course, two_day_course.days[1])
    assert list(later) == ["E1"] and later["E1"].start_line == 24 and later["E1"].day == "day-02"


def test_one_exercise_in_two_files_is_refused(tmp_path):
    course = make_course(tmp_path, files={"pkg/mod.py": MOD, "b/c.py": MOD.replace("E2", "E9")}, generate=False)
    with pytest.raises(MarkerError, match=r"day-01 E1 used twice \(first in b/c.py:5\)") as info:
        scaffold.day_regions(course, course.days[0])
    assert info.value.file == "pkg/mod.py" and info.value.line == 5


def test_missing_tree_is_one_drift(course):
    day = course.days[0]
    shutil.rmtree(day.lab)
    assert [(d.path, d.kind) for d in scaffold.diff(course, day)] == [("lab: .", "missing")]


def test_instructor_entry_point(two_day_course, monkeypatch, capsys):
    monkeypatch.delenv("GRADER_COURSE", raising=False)
    monkeypatch.chdir(two_day_course.root)
    lab_mod = two_day_course.days[0].lab / "pkg/mod.py"
    assert scaffold.main(["--check"]) == 0
    lab_mod.write_text("student work\n")
    assert scaffold.main(["1", "--check"]) == 1
    assert "drift: day-01 lab: pkg/mod.py: differs" in capsys.readouterr().out
    assert scaffold.main(["day-02", "--check"]) == 0              # one day at a time
    assert scaffold.main(["day-01"]) == 1                          # refuses to overwrite drifted work
    assert lab_mod.read_text() == "student work\n"
    assert "--force" in capsys.readouterr().err
    assert scaffold.main(["day-01", "--force"]) == 0
    assert "TODO(E1)" in lab_mod.read_text()
    assert scaffold.main(["day-99"]) == 2 and "unknown day" in capsys.readouterr().err
    assert scaffold.main(["--frobnicate"]) == 2
    assert scaffold.main([]) == 0                                   # every day
