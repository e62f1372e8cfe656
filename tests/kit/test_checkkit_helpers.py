"""Small helpers of the check kit that failure messages and log judging rest on."""

from __future__ import annotations

from grader.checkkit import differing, short
from grader.checkkit.sessionlog import parse_lines


def test_differing_shows_where_two_long_texts_part():
    body = "exit status 1 (460 ms)\n" + "test_calc ok\n" * 40
    seen, expected = differing(body, body + "\n", 60)
    assert seen != expected
    assert short(repr(body), 80) == short(repr(body + "\n"), 80)  # what a plain cut would have shown
    assert seen.endswith("ok\\n'") and expected.endswith("ok\\n\\n'")
    assert seen.startswith("…") and len(seen) <= 62


def test_differing_starts_at_the_beginning_when_the_first_character_differs():
    seen, expected = differing("abc", "xbc")
    assert (seen, expected) == ("'abc'", "'xbc'")
    assert differing([1, 2], [1, 3]) == ("[1, 2]", "[1, 3]")


def test_parse_lines_splits_at_newlines_only():
    lines = parse_lines(b'{"a": 1}\n{"b": "x\ry"}\r\n{"c": 3}')
    assert [line.raw for line in lines] == [b'{"a": 1}\n', b'{"b": "x\ry"}\r\n', b'{"c": 3}']
    assert lines[0].data == {"a": 1} and lines[2].data is None  # no newline: not complete
    assert [line.number for line in lines] == [1, 2, 3]
    assert parse_lines(b"") == [] and [line.raw for line in parse_lines(b"\n")] == [b"\n"]

