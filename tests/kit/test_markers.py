"""The markers of the one source: day blocks and exercise regions, strict and named."""
from __future__ import annotations

import pytest

from grader.scaffold.markers import MarkerError, regions, render, select_day

ORDER = {"day-01": 1, "day-02": 2, "day-03": 3}

REGION = """\
def f(x):
    y = x
    # BEGIN SOLUTION day-02 E7
    if y:
        return y + 1
    # END SOLUTION day-02 E7
    # BEGIN SCAFFOLD day-02 E7
    # raise NotImplementedError("TODO(E7): add one")
    #
    #     # deeper
    # END SCAFFOLD day-02 E7
    return 0
"""


def day(text, number, lab=False, revert=frozenset()):
    return render(text, day=number, day_id=f"day-{number:02d}", order=ORDER, lab=lab, revert=revert,
                  file="pkg/mod.py")


def test_a_days_lab_has_its_scaffold_and_no_markers():
    out = day(REGION, 2, lab=True)
    assert out == ('def f(x):\n    y = x\n    raise NotImplementedError("TODO(E7): add one")\n'
                   "\n        # deeper\n    return 0\n")
    assert "BEGIN" not in out and "SOLUTION" not in out


def test_a_days_solution_and_later_days_have_the_solution():
    solution = "def f(x):\n    y = x\n    if y:\n        return y + 1\n    return 0\n"
    assert day(REGION, 2) == solution
    assert day(REGION, 3, lab=True) == solution   # day 3's lab: day 2's answer is given


def test_revert_replaces_only_the_named_region_of_that_day():
    text = REGION + REGION.replace("E7", "E8").replace("def f", "def g")
    out = day(text, 2, revert={"E8"})
    assert "return y + 1" in out and "TODO(E8)" in out and "TODO(E7)" not in out
    assert day(text, 3, revert={"E8"}).count("return y + 1") == 2   # a revert is about the day's own points


def test_a_region_that_reaches_an_earlier_day_is_refused():
    with pytest.raises(MarkerError) as info:
        day(REGION, 1)
    assert (info.value.line, "would appear on day 1") == (3, "would appear on day 1")
    assert "'# [day 2+]' block" in str(info.value)
    assert day("# [day 2+]\n" + REGION + "# [/day]\n", 1) == ""


def test_crlf_line_endings_survive():
    text = REGION.replace("\n", "\r\n")
    assert day(text, 2, lab=True) == day(REGION, 2, lab=True).replace("\n", "\r\n")


def test_tab_indented_markers():
    text = ("def f():\n\t# BEGIN SOLUTION day-01 E1\n\treturn 1\n\t# END SOLUTION day-01 E1\n"
            "\t# BEGIN SCAFFOLD day-01 E1\n\t# pass\n\t# END SCAFFOLD day-01 E1\n")
    assert day(text, 1, lab=True) == "def f():\n\tpass\n"


BLOCKS = """\
a = 0
# [day 2+]
b = 2
    # [day 3]
c = 3
    # [or day 4+]
c = 4
    # [/day]
# [/day]
# [day 1]
d = 1
# [or day 2-3]
d = 23
# [/day]
"""


@pytest.mark.parametrize("number, kept", [
    (1, ["a = 0", "d = 1"]),
    (2, ["a = 0", "b = 2", "d = 23"]),
    (3, ["a = 0", "b = 2", "c = 3", "d = 23"]),
    (4, ["a = 0", "b = 2", "c = 4"]),
])
def test_day_blocks_nest_and_branch(number, kept):
    assert [line.strip() for _, line in select_day(BLOCKS, number)] == kept


def test_kept_lines_carry_their_source_line_numbers():
    assert [n for n, _ in select_day(BLOCKS, 3)] == [1, 3, 5, 13]


def test_regions_are_found_per_day():
    text = "# [day 2+]\n" + REGION + "# [/day]\n"
    assert regions(text, day=1) == []
    [found] = regions(text, day=2, file="pkg/mod.py")
    assert (found.day, found.id, found.file, found.start_line) == ("day-02", "E7", "pkg/mod.py", 4)


BAD = {
    "unclosed": ("    # BEGIN SOLUTION day-01 E1\n    x = 1\n", 1, "not closed"),
    "end-without-begin": ("x = 1\n# END SOLUTION day-01 E1\n", 2, "without an open region"),
    "scaffold-without-solution": ("# BEGIN SCAFFOLD day-01 E1\n# x\n# END SCAFFOLD day-01 E1\n", 1,
                                  "without an open region"),
    "mismatched-id": ("# BEGIN SOLUTION day-01 E1\nx\n# END SOLUTION day-01 E2\n", 3, "closes region day-01 E1"),
    "nested": ("# BEGIN SOLUTION day-01 E1\n# BEGIN SOLUTION day-01 E2\n", 2, "nested region"),
    "solution-without-scaffold": ("# BEGIN SOLUTION day-01 E1\nx = 1\n# END SOLUTION day-01 E1\ny = 2\n", 4,
                                  "not followed by its scaffold"),
    "scaffold-not-commented": ("    # BEGIN SOLUTION day-01 E1\n    x = 1\n    # END SOLUTION day-01 E1\n"
                               "    # BEGIN SCAFFOLD day-01 E1\n    # ok\n    x = 2\n    # END SCAFFOLD day-01 E1\n",
                               6, "not commented"),
    "id-used-twice": (("# BEGIN SOLUTION day-01 E1\nx\n# END SOLUTION day-01 E1\n# BEGIN SCAFFOLD day-01 E1\n"
                       "# y\n# END SCAFFOLD day-01 E1\n") * 2, 7, "used twice"),
    "marker-without-day": ("# BEGIN SOLUTION E1\nx\n", 1, "malformed region marker"),
    "misspelt-marker": ("#BEGIN SOLUTION day-01 E1\nx\n", 1, "malformed region marker"),
    "indent-mismatch": ("    # BEGIN SOLUTION day-01 E1\n    x\n  # END SOLUTION day-01 E1\n", 3,
                        "indented differently"),
    "unknown-day": ("# BEGIN SOLUTION day-09 E1\nx\n# END SOLUTION day-09 E1\n# BEGIN SCAFFOLD day-09 E1\n"
                    "# y\n# END SCAFFOLD day-09 E1\n", 1, "unknown day"),
    "day-block-unclosed": ("# [day 2+]\nx\n", 1, "day block is not closed"),
    "day-close-alone": ("x\n# [/day]\n", 2, "without an open day block"),
    "day-or-alone": ("# [or day 2+]\n", 1, "without an open day block"),
    "day-branches-overlap": ("# [day 2+]\nx\n# [or day 3]\ny\n# [/day]\n", 3, "overlaps"),
    "day-range-empty": ("# [day 3-2]\n# [/day]\n", 1, "is empty"),
    "day-marker-misspelt": ("# [days 2+]\n# [/day]\n", 1, "malformed day marker"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_marker_mistakes_name_file_line_and_fix(case):
    text, line, problem = BAD[case]
    with pytest.raises(MarkerError) as info:
        day(text, 2, lab=True)
    err = info.value
    assert (err.file, err.line) == ("pkg/mod.py", line), str(err)
    assert problem in err.problem, str(err)
    assert str(err).startswith(f"pkg/mod.py:{line}: ") and "Fix: " in str(err)
