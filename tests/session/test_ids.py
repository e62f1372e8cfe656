from __future__ import annotations

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from mca.session.ids import (
    SESSION_ID_PATTERN,
    InvalidSessionId,
    check_session_id,
    fresh_session_id,
    new_session_id,
    session_path,
)


def test_id_is_utc_time_plus_four_hex_digits():
    with freeze_time("2026-09-07 10:00:00"):
        session_id = new_session_id()
    assert SESSION_ID_PATTERN.fullmatch(session_id)
    assert session_id.startswith("s-20260907-100000-")


def test_ids_sort_in_creation_order():
    made = []
    for moment in ["2026-01-31 23:59:59", "2026-02-01 00:00:00", "2026-02-01 00:00:01", "2027-01-01 00:00:00"]:
        with freeze_time(moment):
            made.append(new_session_id())
    assert sorted(made) == made


def test_ids_made_in_the_same_second_still_sort_in_creation_order(tmp_path):
    made = []
    with freeze_time("2026-09-07 10:00:00"):
        for _ in range(30):
            session_id = fresh_session_id(tmp_path)
            (tmp_path / f"{session_id}.jsonl").touch()
            made.append(session_id)
    assert len(set(made)) == 30
    assert sorted(made) == made


def test_explicit_time_is_used():
    assert new_session_id(datetime(2030, 5, 6, 7, 8, 9, tzinfo=timezone.utc)).startswith("s-20300506-070809-")


@pytest.mark.parametrize(
    "bad", ["", "../x", "/etc/passwd", "s-20260907-100000-ABCD", "s-20260907-100000-abc", "s-2026090-100000-abcd",
            "s-20260907-100000-abcd/../../x", "s-20260907-100000-abcd.jsonl", None, 7],
)
def test_anything_that_is_not_an_id_is_refused(bad, tmp_path):
    with pytest.raises(InvalidSessionId):
        check_session_id(bad)
    with pytest.raises(InvalidSessionId):
        session_path(tmp_path, bad)


def test_session_path_is_inside_the_sessions_dir(tmp_path):
    assert session_path(tmp_path, "s-20260907-100000-ab12") == tmp_path / "s-20260907-100000-ab12.jsonl"
