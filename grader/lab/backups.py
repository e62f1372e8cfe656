"""`grader reset` and `grader restore`: never delete a student's file without a copy.

Backups live in `<course root>/.grader/backups/<day id>/<UTC timestamp>/`, one full
copy of the lab each, with `<UTC timestamp>.json` beside it (the score the lab had at
its last check, if that check saw these very files). A backup is written under a hidden
temporary name and renamed when complete, so a crash never leaves a half backup that
looks whole. An untouched lab (exactly the generated files) is not backed up.

The lab's contents are replaced in place (trees.replace_contents): the directory itself
stays, so a student whose shell stands in it is not left in a deleted directory.
Prompting for confirmation is the CLI's job: plan_reset and plan_restore tell it what
is about to happen.
"""
from __future__ import annotations

import json
import re
import shutil
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from grader import scaffold
from grader.course import CourseError
from grader.i18n import word
from grader.scaffold import trees

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

    @property
    def size(self) -> int:
        """Bytes of the files it holds."""
        total = 0
        for p in self.path.rglob("*"):
            try:
                if p.is_file() and not p.is_symlink():
                    total += p.stat().st_size
            except OSError:
                pass
        return total

    @property
    def note(self) -> dict:
        """What was recorded beside it when it was taken ({} for older backups)."""
        try:
            data = json.loads(self.path.with_name(self.name + ".json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def score(self) -> str | None:
        """`4/11 passed` as last checked, with how sure that is; None if never checked."""
        last = self.note.get("last_check")
        if not isinstance(last, dict) or "passed" not in last:
            return None
        if self.note.get("last_check_current"):
            return word("backup.score", passed=last.get("passed"), total=last.get("total"), when=last.get("when", "?"))
        return word("backup.score_edited", passed=last.get("passed"), total=last.get("total"),
                    when=last.get("when", "?"))


@dataclass(frozen=True)
class BackupInfo:
    """A backup as `grader restore DAY` lists it."""

    backup: Backup
    changed: int | None    # files that differ from the untouched lab (None: the lab cannot be generated)
    files: int
    size: int
    score: str | None

    def describe(self) -> str:
        changed = (word("backup.changed_unknown") if self.changed is None else
                   word("backup.changed_one" if self.changed == 1 else "backup.changed_many", count=self.changed))
        score = self.score or word("backup.never_checked")
        return word("backup.row", name=self.backup.name, score=score, changed=changed, files=self.files,
                    size=human_size(self.size))


def human_size(n: int) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} bytes"


@dataclass(frozen=True)
class ResetPlan:
    day_id: str
    lab: Path
    lab_exists: bool       # False: nothing to back up, the lab is simply generated
    lab_files: int
    backups_dir: Path
    untouched: bool = False  # the lab holds exactly the generated files: no backup is taken


@dataclass(frozen=True)
class ResetResult:
    backup: Path | None    # None: there was no lab, or it was untouched: nothing to back up
    lab: Path
    untouched: bool = False

    def describe(self) -> str:
        if self.backup is None and self.untouched:
            return word("backup.untouched", lab=self.lab)
        if self.backup is None:
            return word("backup.reset_fresh", lab=self.lab)
        return word("backup.reset_saved", backup=self.backup, lab=self.lab)


@dataclass(frozen=True)
class RestorePlan:
    day_id: str
    lab: Path
    lab_exists: bool       # True: the current lab is backed up before it is replaced (unless untouched)
    source: Backup
    untouched: bool = False


@dataclass(frozen=True)
class RestoreResult:
    restored: Backup       # the backup brought back (it stays where it is)
    backup: Path | None    # where the lab as it was before the restore went
    lab: Path
    untouched: bool = False

    def describe(self) -> str:
        if self.backup:
            before = word("backup.restore_saved", backup=self.backup)
        elif self.untouched:
            before = word("backup.restore_untouched")
        else:
            before = word("backup.restore_none")
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
    from grader.course.manifest import mistyped_path

    lab = _path(course, day.lab)
    wrong = mistyped_path(course, day, "lab")
    if wrong:
        raise BackupError(word("backup.nothing_changed", problem=wrong))
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


def _note(course, day, lab: Path) -> dict:
    """The lab's last recorded check, and whether it saw exactly the files backed up now."""
    from grader.lab.state import State

    last = State.load(course.root, readonly=True).last(day.id)
    if not last:
        return {}
    current = last.get("lab_sha256") == trees.fingerprint(lab, course.runtime_dirs)
    keep = {k: last[k] for k in ("passed", "total", "bonus_passed", "bonus_total", "when") if k in last}
    return {"last_check": keep, "last_check_current": current}


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
        note = _note(course, day, lab)
        if note:
            final.with_name(final.name + ".json").write_text(json.dumps(note, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise BackupError(word("backup.could_not_back_up", lab=lab, folder=folder, error=exc)) from exc
    except BaseException:   # Ctrl-C: no half copy left behind
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return final


def _generate_into(tree: dict[str, bytes], modes: dict[str, int]):
    def fill(staging: Path) -> None:
        trees.write_tree(tree, staging, modes)
    return fill


def _generated(course, day) -> tuple[dict, dict]:
    try:
        return scaffold.build(course, day, lab=True)   # a broken source must fail before anything moves
    except (*scaffold.ERRORS, OSError) as exc:
        raise BackupError(word("backup.cannot_generate", day=day.id, error=exc)) from exc


def _untouched(course, day, lab: Path) -> bool:
    """The lab holds exactly the generated files (False if the source cannot be rendered)."""
    if not lab.is_dir():
        return False
    try:
        tree, _ = scaffold.build(course, day, lab=True)
    except (*scaffold.ERRORS, OSError):
        return False
    return trees.is_untouched(lab, tree)


def plan_reset(course, day) -> ResetPlan:
    day = _day(course, day)
    lab = _lab(course, day)
    files = len(trees.tree_files(lab, course.runtime_dirs)) if lab.is_dir() else 0
    return ResetPlan(day.id, lab, lab.is_dir(), files, backups_dir(course, day), _untouched(course, day, lab))


def reset(course, day, *, now: datetime | None = None) -> ResetResult:
    """Back up the student's lab (if any, and not untouched), then replace its contents
    with a freshly generated lab, in place."""
    day = _day(course, day)
    lab = _lab(course, day)
    tree, modes = _generated(course, day)
    untouched = lab.is_dir() and trees.is_untouched(lab, tree)
    backup = _back_up(course, day, lab, now) if lab.is_dir() and not untouched else None
    _swap(lab, _generate_into(tree, modes), backup)
    return ResetResult(backup, lab, untouched)


def _swap(lab: Path, fill, backup: Path | None) -> None:
    try:
        trees.replace_contents(lab, fill)
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
    return RestorePlan(day.id, lab, lab.is_dir(), _choose(course, day, backup_name), _untouched(course, day, lab))


def describe_backups(course, day) -> list[BackupInfo]:
    """The day's backups, newest first, each with what it holds."""
    from grader.course.manifest import mistyped_path

    day = _day(course, day)
    wrong = mistyped_path(course, day, "lab")
    if wrong:
        raise BackupError(word("backup.nothing_changed", problem=wrong))
    found = list_backups(course, day)
    try:
        tree, _ = scaffold.build(course, day, lab=True) if found else ({}, {})
    except (*scaffold.ERRORS, OSError):
        tree = None
    infos = []
    for b in found:
        changed = None if tree is None else len(trees.diff_tree(tree, b.path, course.runtime_dirs))
        infos.append(BackupInfo(b, changed, b.files, b.size, b.score()))
    return infos


def restore(course, day, backup_name: str | None = None, *,
            now: datetime | None = None) -> RestoreResult:
    """Back up the current lab, then bring back a backup (the newest if no name).
    The restored backup stays in place, so a restore can be repeated or undone."""
    day = _day(course, day)
    lab = _lab(course, day)
    source = _choose(course, day, backup_name)
    untouched = _untouched(course, day, lab)
    before = _back_up(course, day, lab, now) if lab.is_dir() and not untouched else None

    def fill(staging: Path) -> None:
        shutil.copytree(source.path, staging, symlinks=True)

    _swap(lab, fill, before)
    return RestoreResult(source, before, lab, untouched)
