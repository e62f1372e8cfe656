"""`grader reset` and `grader restore`: never delete a student's file without a copy.

Backups live in `<course root>/.grader/backups/<day id>/<UTC timestamp>/`, one full
copy of the lab each. A backup is written under a hidden temporary name and renamed
when complete, so a crash never leaves a half backup that looks whole. The lab itself
is replaced by writing the new tree beside it and swapping the two
(trees.replace_tree). Prompting for confirmation is the CLI's job: plan_reset and
plan_restore tell it what is about to happen.
"""
from __future__ import annotations

import re
import shutil
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from grader import scaffold, trees
from grader.i18n import word
from grader.course import CourseError

STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(r"^(\d{8}T\d{6}Z)(?:-(\d+))?$")


class BackupError(Exception):
    """A refusal: str() is the message for the user, including what to do."""


class UnknownDay(BackupError, LookupError):
    pass


@dataclass(frozen=True)
class Backup:
    name: str              # e.g. 20261129T102233Z, or 20261129T102233Z-2 (same second)
    path: Path
    created: datetime      # UTC, from the name

    @property
    def files(self) -> int:
        return sum(1 for p in self.path.rglob("*") if p.is_file())


@dataclass(frozen=True)
class ResetPlan:
    day_id: str
    lab: Path
    lab_exists: bool       # False: nothing to back up, the lab is simply generated
    lab_files: int
    backups_dir: Path


@dataclass(frozen=True)
class ResetResult:
    backup: Path | None    # None: there was no lab, nothing to back up
    lab: Path

    def describe(self) -> str:
        if self.backup is None:
            return word("backup.reset_fresh", lab=self.lab)
        return word("backup.reset_saved", backup=self.backup, lab=self.lab)


@dataclass(frozen=True)
class RestorePlan:
    day_id: str
    lab: Path
    lab_exists: bool       # True: the current lab is backed up before it is replaced
    source: Backup


@dataclass(frozen=True)
class RestoreResult:
    restored: Backup       # the backup brought back (it stays where it is)
    backup: Path | None    # where the lab as it was before the restore went
    lab: Path

    def describe(self) -> str:
        before = word("backup.restore_saved", backup=self.backup) if self.backup else word("backup.restore_none")
        return word("backup.restored", before=before, name=self.restored.name, lab=self.lab)


def _day(course, day):
    """A Day from a Day, its id, its slug or its number; an UnknownDay refusal otherwise."""
    try:
        return course.find_day(day)
    except CourseError as exc:  # one refusal type for the CLI
        raise UnknownDay(str(exc)) from exc


def _path(course, path) -> Path:
    path = Path(path)
    return path if path.is_absolute() else Path(course.root) / path


def backups_dir(course, day) -> Path:
    return Path(course.root) / ".grader" / "backups" / day.id


def _lab(course, day) -> Path:
    lab = _path(course, day.lab)
    if lab.exists() and not lab.is_dir():
        raise BackupError(word("backup.lab_is_file", lab=lab))
    return lab


def _stamp(now: datetime | None) -> datetime:
    now = now or datetime.now(timezone.utc)
    return now.replace(tzinfo=timezone.utc) if now.tzinfo is None else now.astimezone(timezone.utc)


def list_backups(course, day) -> list[Backup]:
    """The day's backups, newest first; half-written ones (hidden names) are not listed."""
    day = _day(course, day)
    folder = backups_dir(course, day)
    found = []
    for entry in folder.iterdir() if folder.is_dir() else ():
        m = _NAME.match(entry.name)
        if m and entry.is_dir():
            created = datetime.strptime(m.group(1), STAMP_FORMAT).replace(tzinfo=timezone.utc)
            found.append((created, int(m.group(2) or 1), Backup(entry.name, entry, created)))
    return [b for *_, b in sorted(found, key=lambda t: (t[0], t[1]), reverse=True)]


def _back_up(course, day, lab: Path, now: datetime | None) -> Path:
    """Copy the lab to a new, uniquely named backup; raise BackupError if it cannot."""
    folder = backups_dir(course, day)
    if folder.resolve().is_relative_to(lab.resolve()):
        raise BackupError(word("backup.inside_lab", folder=folder, lab=lab))
    partial = folder / f".partial-{uuid.uuid4().hex[:8]}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copytree(lab, partial, symlinks=True)
        stamp = _stamp(now).strftime(STAMP_FORMAT)
        n = 1
        while True:
            final = folder / (stamp if n == 1 else f"{stamp}-{n}")
            try:
                final.mkdir()          # claim the name; it is ours and empty
                break
            except FileExistsError:
                n += 1
        partial.rename(final)          # replaces the empty dir we just made
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise BackupError(word("backup.could_not_back_up", lab=lab, folder=folder, error=exc)) from exc
    return final


def _generate_into(tree: dict[str, bytes], modes: dict[str, int]):
    def fill(staging: Path) -> None:
        trees.write_tree(tree, staging, modes)
    return fill


def plan_reset(course, day) -> ResetPlan:
    day = _day(course, day)
    lab = _lab(course, day)
    files = len(trees.tree_files(lab, course.runtime_dirs)) if lab.is_dir() else 0
    return ResetPlan(day.id, lab, lab.is_dir(), files, backups_dir(course, day))


def reset(course, day, *, now: datetime | None = None) -> ResetResult:
    """Back up the student's lab (if any), then replace it with a freshly generated one."""
    day = _day(course, day)
    lab = _lab(course, day)
    try:
        tree, modes = scaffold.build(course, day, lab=True)   # a broken source must fail before anything moves
    except (*scaffold.ERRORS, OSError) as exc:
        raise BackupError(word("backup.cannot_generate", day=day.id, error=exc)) from exc
    backup = _back_up(course, day, lab, now) if lab.is_dir() else None
    _swap(lab, _generate_into(tree, modes), backup)
    return ResetResult(backup, lab)


def _swap(lab: Path, fill, backup: Path | None) -> None:
    try:
        trees.replace_tree(lab, fill)
    except (OSError, *scaffold.ERRORS) as exc:
        saved = word("backup.copy_in", backup=backup) if backup else ""
        raise BackupError(word("backup.could_not_replace", lab=lab, error=exc, saved=saved)) from exc


def _choose(course, day, backup_name: str | None) -> Backup:
    available = list_backups(course, day)
    if not available:
        raise BackupError(word("backup.none_yet", day=day.id, folder=backups_dir(course, day)))
    if backup_name is None:
        return available[0]
    for b in available:
        if b.name == backup_name:
            return b
    names = ", ".join(b.name for b in available)
    raise BackupError(word("backup.no_such", name=backup_name, day=day.id, names=names))


def plan_restore(course, day, backup_name: str | None = None) -> RestorePlan:
    day = _day(course, day)
    lab = _lab(course, day)
    return RestorePlan(day.id, lab, lab.is_dir(), _choose(course, day, backup_name))


def restore(course, day, backup_name: str | None = None, *,
            now: datetime | None = None) -> RestoreResult:
    """Back up the current lab, then bring back a backup (the newest if no name).
    The restored backup stays in place, so a restore can be repeated or undone."""
    day = _day(course, day)
    lab = _lab(course, day)
    source = _choose(course, day, backup_name)
    before = _back_up(course, day, lab, now) if lab.is_dir() else None

    def fill(staging: Path) -> None:
        shutil.copytree(source.path, staging, symlinks=True)

    _swap(lab, fill, before)
    return RestoreResult(source, before, lab)
