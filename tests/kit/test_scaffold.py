"""The generator: regions in, labs out; strict about markers; drift is named."""
from __future__ import annotations

import os
import shutil

import pytest

from grader import scaffold
from grader.scaffold import ScaffoldError, render

from .conftest import MOD, make_course, write

REGION = """\
def f(x):
    y = x
    # BEGIN SOLUTION E7
    if y:
        return y + 1
    # END SOLUTION E7
    # BEGIN SCAFFOLD E7
    # raise NotImplementedError("TODO(E7): add one")
    #
    #     # deeper
    # END SCAFFOLD E7
    return 0
"""


def test_lab_text_has_scaffold_and_no_markers():
    out = render(REGION)
    assert out == ('def f(x):\n    y = x\n    raise NotImplementedError("TODO(E7): add one")\n'
                   "\n        # deeper\n    return 0\n")
    assert "BEGIN" not in out and "SOLUTION" not in out


def test_empty_revert_gives_the_solution_without_markers():
    assert render(REGION, revert=set()) == "def f(x):\n    y = x\n    if y:\n        return y + 1\n    return 0\n"


def test_revert_replaces_only_the_named_region():
    out = render(MOD, revert={"E2"})
    assert "return 1\n" in out and "TODO(E1)" not in out
    assert "return 2.0  # looks tidy, is wrong\n" in out and "    return 2\n" not in out
    assert "# BEGIN" not in out


def test_keep_markers_keeps_unreverted_regions_verbatim():
    out = render(MOD, revert={"E1"}, keep_markers=True)
    assert "# BEGIN SOLUTION E2\n    return 2\n" in out
    assert "# BEGIN SOLUTION E1" not in out and 'raise NotImplementedError("TODO(E1)' in out


def test_crlf_line_endings_survive():
    text = REGION.replace("\n", "\r\n")
    assert render(text) == render(REGION).replace("\n", "\r\n")


def test_tab_indented_markers():
    text = "def f():\n\t# BEGIN SOLUTION E1\n\treturn 1\n\t# END SOLUTION E1\n\t# BEGIN SCAFFOLD E1\n\t# pass\n\t# END SCAFFOLD E1\n"
    assert render(text) == "def f():\n\tpass\n"


BAD = {
    "unclosed": ("    # BEGIN SOLUTION E1\n    x = 1\n", 1, "not closed"),
    "end-without-begin": ("x = 1\n# END SOLUTION E1\n", 2, "without an open region"),
    "scaffold-without-solution": ("# BEGIN SCAFFOLD E1\n# x\n# END SCAFFOLD E1\n", 1, "without an open region"),
    "mismatched-id": ("# BEGIN SOLUTION E1\nx\n# END SOLUTION E2\n", 3, "closes region E1"),
    "nested": ("# BEGIN SOLUTION E1\n# BEGIN SOLUTION E2\n", 2, "nested region"),
    "solution-without-scaffold": ("# BEGIN SOLUTION E1\nx = 1\n# END SOLUTION E1\ny = 2\n", 4,
                                  "not followed by its scaffold"),
    "blank-line-before-scaffold": ("# BEGIN SOLUTION E1\nx\n# END SOLUTION E1\n\n# BEGIN SCAFFOLD E1\n", 4,
                                   "not followed by its scaffold"),
    "scaffold-not-commented": ("    # BEGIN SOLUTION E1\n    x = 1\n    # END SOLUTION E1\n"
                               "    # BEGIN SCAFFOLD E1\n    # ok\n    x = 2\n    # END SCAFFOLD E1\n", 6,
                               "not commented"),
    "scaffold-comment-without-space": ("# BEGIN SOLUTION E1\nx\n# END SOLUTION E1\n# BEGIN SCAFFOLD E1\n"
                                       "#x = 2\n# END SCAFFOLD E1\n", 5, "not commented"),
    "id-used-twice": ("# BEGIN SOLUTION E1\nx\n# END SOLUTION E1\n# BEGIN SCAFFOLD E1\n# y\n# END SCAFFOLD E1\n"
                      "# BEGIN SOLUTION E1\nx\n# END SOLUTION E1\n# BEGIN SCAFFOLD E1\n# y\n# END SCAFFOLD E1\n",
                      7, "used twice"),
    "marker-without-id": ("# BEGIN SOLUTION\nx\n", 1, "malformed region marker"),
    "misspelt-marker": ("#BEGIN SOLUTION E1\nx\n", 1, "malformed region marker"),
    "indent-mismatch": ("    # BEGIN SOLUTION E1\n    x\n  # END SOLUTION E1\n", 3, "indented differently"),
    "unclosed-scaffold": ("# BEGIN SOLUTION E1\nx\n# END SOLUTION E1\n# BEGIN SCAFFOLD E1\n# y\n", 1,
                          "not closed"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_marker_mistakes_name_file_line_and_fix(case):
    text, line, problem = BAD[case]
    with pytest.raises(ScaffoldError) as info:
        render(text, file="pkg/mod.py")
    err = info.value
    assert (err.file, err.line) == ("pkg/mod.py", line)
    assert problem in err.problem
    assert str(err).startswith(f"pkg/mod.py:{line}: ") and "Fix: " in str(err)


def test_id_used_twice_across_files(tmp_path):
    write(tmp_path, {"a.py": MOD, "b/c.py": MOD.replace("E2", "E9")})
    day = make_course(tmp_path / "c", files={"a.py": MOD, "b/c.py": MOD.replace("E2", "E9")},
                      generate_lab=False).days[0]
    with pytest.raises(ScaffoldError, match=r"E1 used twice \(first in a.py:5\)") as info:
        scaffold.regions(day)
    assert info.value.file == "b/c.py" and info.value.line == 5


def test_revert_of_unknown_id_is_refused(tmp_path):
    write(tmp_path / "src", {"m.py": MOD})
    with pytest.raises(ScaffoldError, match="no region for E9"):
        scaffold.build(tmp_path / "src", {"E9"})


def test_generate_round_trip(tmp_path):
    raw = bytes(range(256)) * 4
    src = write(tmp_path / "src", {
        "pkg/mod.py": MOD,
        "pkg/plain.py": "x = 1\r\ny = 2",                 # CRLF, no final newline
        "data/blob.bin": raw,                              # not UTF-8
        "run.sh": "#!/bin/sh\necho hi\n",
        "pkg/__pycache__/mod.cpython-311.pyc": b"junk",
        "pkg/stale.pyc": b"junk",
        ".sessions/s-1.jsonl": "{}\n",
        ".grader/state.json": "{}",
    })
    os.chmod(src / "run.sh", 0o755)
    written = scaffold.generate(src, tmp_path / "lab")
    lab = tmp_path / "lab"
    assert sorted(written) == ["data/blob.bin", "pkg/mod.py", "pkg/plain.py", "run.sh"]
    assert scaffold.tree_files(lab) == sorted(written)
    assert (lab / "data/blob.bin").read_bytes() == raw
    assert (lab / "pkg/plain.py").read_bytes() == b"x = 1\r\ny = 2"
    assert os.stat(lab / "run.sh").st_mode & 0o111
    lab_mod = (lab / "pkg/mod.py").read_text()
    assert 'raise NotImplementedError("TODO(E1): return one")' in lab_mod and "return 2.0" in lab_mod
    assert "BEGIN" not in lab_mod and "END" not in lab_mod

    scaffold.generate(src, tmp_path / "sol", revert=set())
    sol_mod = (tmp_path / "sol/pkg/mod.py").read_text()
    assert "    return 1\n" in sol_mod and "    return 2\n" in sol_mod and "TODO" not in sol_mod


def test_generate_refuses_a_non_empty_destination(tmp_path):
    write(tmp_path / "src", {"m.py": "x\n"})
    write(tmp_path / "dst", {"mine.py": "keep me\n"})
    with pytest.raises(ScaffoldError, match="not an empty directory"):
        scaffold.generate(tmp_path / "src", tmp_path / "dst")
    assert (tmp_path / "dst/mine.py").read_text() == "keep me\n"


def test_generate_lab_replaces_the_tree_and_leaves_no_staging(course):
    day = course.days[0]
    write(day.lab, {"extra.py": "x\n"})
    (day.lab / "pkg/mod.py").write_text("edited\n")
    scaffold.generate_lab(day)
    assert scaffold.diff_lab(day) == []
    assert not (day.lab / "extra.py").exists()
    assert sorted(p.name for p in day.lab.parent.iterdir()) == [day.lab.name]


def test_broken_solution_leaves_the_lab_alone(course):
    day = course.days[0]
    before = scaffold.read_tree(day.lab)
    (day.solution / "pkg/mod.py").write_text("# BEGIN SOLUTION E1\nx\n")
    with pytest.raises(ScaffoldError):
        scaffold.generate_lab(day)
    assert scaffold.read_tree(day.lab) == before


def test_no_drift_right_after_generation(course):
    day = course.days[0]
    (day.lab / "pkg/__pycache__").mkdir()
    (day.lab / "pkg/__pycache__/mod.cpython-311.pyc").write_bytes(b"x")
    (day.lab / ".sessions").mkdir()
    (day.lab / ".sessions/s.jsonl").write_text("{}\n")
    assert scaffold.diff_lab(day) == []


def test_drift_names_file_kind_and_line(course):
    day = course.days[0]
    text = (day.lab / "pkg/mod.py").read_text().replace("return 2.0", "return 2")
    (day.lab / "pkg/mod.py").write_text(text)
    (day.lab / "README.md").unlink()
    (day.lab / "notes.txt").write_text("mine\n")
    drift = {d.path: d for d in scaffold.diff_lab(day)}
    assert set(drift) == {"pkg/mod.py", "README.md", "notes.txt"}
    assert drift["pkg/mod.py"].kind == "differs"
    expected_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("return 2 "))
    assert drift["pkg/mod.py"].line == expected_line
    assert f"from line {expected_line}" in str(drift["pkg/mod.py"])
    assert drift["README.md"].kind == "missing" and drift["notes.txt"].kind == "extra"


def test_regions_by_id_with_file_and_line(course):
    found = scaffold.regions(course.days[0])
    assert sorted(found) == ["E1", "E2"]
    e1 = found["E1"]
    assert (e1.file, e1.start_line, e1.end_line) == ("pkg/mod.py", 5, 10)
    assert "TODO(E1)" in e1.scaffold_text and e1.solution_text == "    return 1\n"


def test_missing_lab_is_one_drift(course):
    day = course.days[0]
    shutil.rmtree(day.lab)
    assert [(d.path, d.kind) for d in scaffold.diff_lab(day)] == [(".", "missing")]


MANIFEST = '''
format_version = 1
[course]
name = "demo"
title = "demo"
[[days]]
id = "day-01"
slug = "day-01-demo"
title = "demo"
lab = "labs/day-01-demo"
solution = "solutions/day-01-demo"
checks_module = "grader/checks/day01.py"
scaffold_passes = 0
[[days.exercises]]
id = "E1"
file = "pkg/mod.py"
symbol = "one"
kind = "todo"
summary = "one"
[[days.checks]]
id = "c-one"
title = "one"
exercises = ["E1"]
hints = ["look"]
'''


def test_instructor_entry_point(tmp_path, monkeypatch, capsys):
    make_course(tmp_path)
    (tmp_path / "course.toml").write_text(MANIFEST)
    monkeypatch.delenv("GRADER_COURSE", raising=False)
    monkeypatch.chdir(tmp_path)
    lab_mod = tmp_path / "labs/day-01-demo/pkg/mod.py"
    assert scaffold.main(["day-01", "--check"]) == 0
    lab_mod.write_text("student work\n")
    assert scaffold.main(["1", "--check"]) == 1
    assert "drift: pkg/mod.py: differs" in capsys.readouterr().out
    assert scaffold.main(["day-01"]) == 1                     # refuses to overwrite drifted work
    assert lab_mod.read_text() == "student work\n"
    assert "--force" in capsys.readouterr().err
    assert scaffold.main(["day-01", "--force"]) == 0
    assert "TODO(E1)" in lab_mod.read_text()
    assert scaffold.main(["day-99"]) == 2 and "unknown day" in capsys.readouterr().err
    assert scaffold.main([]) == 2
