"""reset / restore: a student's work is always copied before the lab is replaced."""
from __future__ import annotations

import shutil
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from grader import scaffold
from grader.lab import backups
from grader.lab.backups import BackupError, UnknownDay

from .conftest import write

T0 = "2026-11-29 10:22:33"


def _edit(day, text="# my work\n"):
    (day.lab / "pkg/mod.py").write_text(text)
    (day.lab / "mine.txt").write_text("notes\n")


def test_reset_backs_up_the_edit_then_regenerates(course):
    day = course.days[0]
    _edit(day)
    with freeze_time(T0):
        result = backups.reset(course, "day-01")
    assert result.backup == course.root / ".grader/backups/day-01/20261129T102233Z"
    assert (result.backup / "pkg/mod.py").read_text() == "# my work\n"
    assert (result.backup / "mine.txt").read_text() == "notes\n"
    assert result.lab == day.lab and scaffold.diff(course, day) == []
    assert str(result.backup) in result.describe()
    assert sorted(p.name for p in day.lab.parent.iterdir()) == [day.lab.name]   # no staging left


def test_two_resets_in_one_second_get_distinct_backups_newest_first(course):
    day = course.days[0]
    with freeze_time(T0):
        _edit(day, "first\n")
        a = backups.reset(course, day).backup
        _edit(day, "second\n")
        b = backups.reset(course, day).backup
    assert (a.name, b.name) == ("20261129T102233Z", "20261129T102233Z-2")
    assert [x.name for x in backups.list_backups(course, day)] == [b.name, a.name]
    assert (b / "pkg/mod.py").read_text() == "second\n" and (a / "pkg/mod.py").read_text() == "first\n"


def test_list_backups_orders_by_time_and_skips_partial_ones(course):
    day = course.days[0]
    with freeze_time(T0) as clock:
        for n in range(3):
            _edit(day, f"edit {n}\n")
            backups.reset(course, day)
            clock.tick(timedelta(hours=1))
    (backups.backups_dir(course, day) / ".partial-dead").mkdir()
    listed = backups.list_backups(course, day)
    assert [b.name for b in listed] == ["20261129T122233Z", "20261129T112233Z", "20261129T102233Z"]
    assert listed[0].created == datetime(2026, 11, 29, 12, 22, 33, tzinfo=timezone.utc)


def test_explicit_now_is_converted_to_utc(course):
    plus8 = timezone(timedelta(hours=8))
    _edit(course.days[0])
    result = backups.reset(course, "day-01", now=datetime(2026, 11, 29, 18, 22, 33, tzinfo=plus8))
    assert result.backup.name == "20261129T102233Z"


def test_missing_lab_is_simply_generated(course):
    day = course.days[0]
    shutil.rmtree(day.lab)
    plan = backups.plan_reset(course, day)
    assert plan.lab_exists is False and plan.lab_files == 0
    result = backups.reset(course, day)
    assert result.backup is None and "nothing to back up" in result.describe()
    assert scaffold.diff(course, day) == []
    assert backups.list_backups(course, day) == []


def test_lab_that_is_a_file_is_refused_and_kept(course):
    day = course.days[0]
    shutil.rmtree(day.lab)
    day.lab.write_text("not a dir\n")
    with pytest.raises(BackupError, match="is a file, not a lab directory; nothing was changed"):
        backups.reset(course, day)
    assert day.lab.read_text() == "not a dir\n"
    assert not (course.root / ".grader").exists()


def test_unwritable_backup_location_refuses_and_keeps_the_lab(course):
    day = course.days[0]
    _edit(day)
    write(course.root, {".grader/backups": "a file where the folder should be\n"})
    with pytest.raises(BackupError, match="could not back up .*nothing was changed"):
        backups.reset(course, day)
    assert (day.lab / "pkg/mod.py").read_text() == "# my work\n"
    assert (day.lab / "mine.txt").exists()


def test_broken_source_refuses_before_any_backup(course):
    day = course.days[0]
    _edit(day)
    (course.source / "pkg/mod.py").write_text("# BEGIN SOLUTION day-01 E1\n")
    with pytest.raises(BackupError, match="cannot generate day-01"):
        backups.reset(course, day)
    assert (day.lab / "mine.txt").exists() and backups.list_backups(course, day) == []


def test_unknown_day_is_refused(course):
    with pytest.raises(UnknownDay, match="day-99"):
        backups.reset(course, "day-99")
    with pytest.raises(BackupError):
        backups.restore(course, "99")
    assert not (course.root / ".grader").exists()


def test_day_aliases(course):
    for alias in ("1", "01", "day-01-demo", course.days[0]):
        assert backups.plan_reset(course, alias).day_id == "day-01"


def test_restore_backs_up_the_current_lab_first(course):
    day = course.days[0]
    _edit(day, "version 1\n")
    with freeze_time(T0) as clock:
        first = backups.reset(course, day).backup
        _edit(day, "version 2\n")
        clock.tick(timedelta(seconds=5))
        plan = backups.plan_restore(course, day)
        assert plan.source.path == first and plan.lab_exists
        result = backups.restore(course, day)
    assert result.restored.path == first
    assert result.backup.name == "20261129T102238Z"
    assert (result.backup / "pkg/mod.py").read_text() == "version 2\n"     # not lost
    assert (day.lab / "pkg/mod.py").read_text() == "version 1\n"           # brought back
    assert (first / "pkg/mod.py").read_text() == "version 1\n"             # backup stays
    assert [b.name for b in backups.list_backups(course, day)] == ["20261129T102238Z", "20261129T102233Z"]
    assert first.name in result.describe() and result.backup.name in result.describe()


def test_restore_by_name(course):
    day = course.days[0]
    with freeze_time(T0) as clock:
        _edit(day, "old\n")
        old = backups.reset(course, day).backup
        clock.tick(timedelta(minutes=1))
        _edit(day, "newer\n")
        backups.reset(course, day)
        result = backups.restore(course, day, old.name)
    assert result.restored.name == old.name
    assert (day.lab / "pkg/mod.py").read_text() == "old\n"


def test_restore_unknown_name_lists_the_available_ones(course):
    day = course.days[0]
    _edit(day)
    with freeze_time(T0):
        backups.reset(course, day)
    _edit(day)
    with pytest.raises(BackupError, match="no backup named 'nope'.*available \\(newest first\\): 20261129T102233Z"):
        backups.restore(course, day, "nope")
    assert (day.lab / "pkg/mod.py").read_text() == "# my work\n"
    assert len(backups.list_backups(course, day)) == 1     # nothing new written either


def test_restore_without_backups_is_refused(course):
    day = course.days[0]
    _edit(day)
    with pytest.raises(BackupError, match="no backups of day-01 yet"):
        backups.restore(course, day)
    assert (day.lab / "mine.txt").exists()
