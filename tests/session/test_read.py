from __future__ import annotations

import hashlib
import json
import os

import pytest

from mca.session.log import read_events


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def replace_line(path, number, text):
    lines = path.read_bytes().splitlines(keepends=True)
    lines[number - 1] = text
    path.write_bytes(b"".join(lines))


def test_an_intact_log_reads_whole(round_one):
    result = read_events(round_one)
    assert [e.seq for e in result.events] == list(range(1, 9))
    assert (result.stopped_at, result.reason, result.damaged, result.last_seq) == (None, None, False, 8)


def test_a_torn_last_line_stops_reading_and_is_reported(round_one):
    os.truncate(round_one, round_one.stat().st_size - 30)
    before = digest(round_one)
    result = read_events(round_one)
    assert [e.seq for e in result.events] == list(range(1, 8))
    assert result.stopped_at == 8 and result.reason == "last line incomplete"
    assert digest(round_one) == before


def test_a_last_line_without_newline_is_torn_even_if_it_parses(round_one):
    os.truncate(round_one, round_one.stat().st_size - 1)
    json.loads(round_one.read_bytes().splitlines()[-1])  # it does parse
    result = read_events(round_one)
    assert len(result.events) == 7 and result.stopped_at == 8


@pytest.mark.parametrize(
    "damage, reason",
    [(b"{oops\n", "not valid JSON"), (b"[1, 2]\n", "not a JSON object"), (b'{"seq": 4, "type": "usage"}\n', "missing ts"),
     (b"\x00\x00\x00\x00\n", "not valid JSON"), (b"\xff\xfe{}\n", "not valid UTF-8"),
     (b'{"seq": "4", "ts": "t", "type": "usage"}\n', "seq is not an integer")],
)
def test_a_bad_middle_line_stops_reading_there(round_one, damage, reason):
    replace_line(round_one, 4, damage)
    result = read_events(round_one)
    assert [e.seq for e in result.events] == [1, 2, 3]
    assert result.stopped_at == 4 and result.reason == reason


def test_a_repeated_seq_stops_reading_there(round_one):
    lines = round_one.read_bytes().splitlines(keepends=True)
    lines.insert(5, lines[4])  # line 6 repeats seq 5
    round_one.write_bytes(b"".join(lines))
    result = read_events(round_one)
    assert [e.seq for e in result.events] == [1, 2, 3, 4, 5]
    assert result.stopped_at == 6 and result.reason == "seq 5 repeats the line before"


def test_nothing_after_the_bad_line_is_returned_even_if_it_is_good(round_one):
    replace_line(round_one, 2, b"garbage\n")
    result = read_events(round_one)
    assert [e.seq for e in result.events] == [1] and result.stopped_at == 2


def test_an_unknown_type_is_kept_and_reading_goes_on(round_one):
    with open(round_one, "ab") as handle:
        handle.write(b'{"seq": 9, "ts": "2026-09-07T10:00:09Z", "type": "compacted", "summary": "x"}\n')
    result = read_events(round_one)
    assert len(result.events) == 9 and not result.damaged
    assert result.events[-1].type == "compacted" and result.events[-1].fields == {"summary": "x"}


def test_an_empty_log_reads_as_no_events(tmp_path):
    empty = tmp_path / "s-20260907-100000-abcd.jsonl"
    empty.write_bytes(b"")
    result = read_events(empty)
    assert result.events == [] and not result.damaged and result.last_seq == 0
