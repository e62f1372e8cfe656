"""Writing an edition: only into a new or empty folder, or with `force` over an earlier
edition (its own files replaced or removed, nothing else), never into the kit; then the
written manifest and record are read back."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from grader import integrity
from grader.course import Course, CourseError, load_course
from grader.i18n import word
from grader.release.layout import EDITION_FILE, RECORD_FILE, Edition, ReleaseError, Written


def previous_files(out: Path) -> set[str] | None:
    """The files an earlier edition in `out` consists of (its edition.toml), or None."""
    try:
        data = tomllib.loads((out / EDITION_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    files = data.get("files")
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else None


def _refuse_place(course: Course, out: Path) -> None:
    """Never into the kit's folder (or below it: the edition would land in the kit's own
    tree), one of its parents, or a folder the edition is read from."""
    target = out.resolve()
    root = Path(course.root).resolve()
    read_from = [root, integrity.PACKAGE, *(Path(p).resolve() for p in (course.source, course.workspace)
                                            if p is not None)]
    if root.is_relative_to(target) or any(target.is_relative_to(folder) for folder in read_from):
        raise ReleaseError(word("release.bad_place", out=out, root=root))


def check_place(course: Course, out: Path, force: bool) -> set[str]:
    """Refuse a destination that is not ours to write; return the earlier edition's files
    (empty for a new or empty directory)."""
    out = Path(out)
    _refuse_place(course, out)
    if out.exists() and not out.is_dir():
        raise ReleaseError(word("release.not_a_dir", out=out))
    if not out.exists() or all(entry.name == ".git" for entry in out.iterdir()):
        return set()   # new, empty, or a fresh repository (only .git): nothing of anyone's to replace
    if not force:
        raise ReleaseError(word("release.not_empty", out=out))
    return previous_files(out) or set()


def write(course: Course, edition: Edition, out: Path, *, force: bool = False) -> Written:
    """Write the edition into `out` (new, empty, or with `force` an earlier edition's folder).
    A file no edition wrote is never overwritten (unless it already holds the same bytes);
    files of the earlier edition that this one lacks are removed, and nothing else."""
    out = Path(out)
    earlier = check_place(course, out, force)
    foreign = [rel for rel, data in sorted(edition.files.items())
               if rel not in earlier and (out / rel).exists()
               and not ((out / rel).is_file() and not (out / rel).is_symlink() and (out / rel).read_bytes() == data)]
    if foreign:
        raise ReleaseError(word("release.foreign", out=out, path=foreign[0], count=len(foreign)))
    stale = sorted(earlier - set(edition.files))
    out.mkdir(parents=True, exist_ok=True)
    for rel, data in sorted(edition.files.items()):
        target = out / rel
        if target.is_symlink():
            target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{target.name}.release-tmp")
        temp.write_bytes(data)
        os.chmod(temp, edition.modes.get(rel, 0o644))
        os.replace(temp, target)
    removed = []
    for rel in stale:
        target = out / rel
        if target.is_file() or target.is_symlink():
            target.unlink()
            removed.append(rel)
            _prune(target.parent, out)
    try:
        load_course(out / "course.toml")
    except CourseError as exc:
        raise ReleaseError(word("release.manifest_broken", error=exc)) from None
    problems = integrity.tampered(out, out / RECORD_FILE, package=out / "grader")
    if problems:
        raise ReleaseError(word("release.record_mismatch", out=out, files=", ".join(map(str, problems[:5]))))
    return Written(out, len(edition.files), tuple(removed))


def _prune(folder: Path, top: Path) -> None:
    """Remove now-empty folders between `folder` and `top` (never `top` itself)."""
    folder, top = folder.resolve(), top.resolve()
    while folder != top and folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
