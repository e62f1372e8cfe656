"""The edition's course.toml: the kit's manifest with its comments and layout kept, the
released days only, no source, no solution or sheet paths; read back and compared with
the kit's tables before it is used."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from grader.course import STUDENT_EDITION, Course
from grader.i18n import word
from grader.release.layout import PRISTINE_DIR, WORKSPACE_DIR, ReleaseError

_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\s]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def student_manifest(course: Course, days) -> str:
    """The kit's course.toml as the edition has it: comments and layout kept, the released
    days only, no source, no solution or sheet paths, the sample workspace and the pristine
    labs where the edition ships them. Checked by reading both back."""
    manifest = Path(course.manifest or Path(course.root) / "course.toml")
    text = manifest.read_text(encoding="utf-8")
    keep = {d.id for d in days}
    head, blocks = _day_blocks(text.splitlines(keepends=True))
    out = [f"# The student edition of {course.name} (made by `grader release`; the instructor's kit\n",
           "# renders it from its one source). Paths are relative to this file.\n", "\n"]
    out += _student_head(head, course.workspace is not None)
    for day_id, lines in blocks:
        if day_id not in keep:
            continue
        table = None
        for line in lines:
            header = _HEADER.match(line)
            key = _KEY.match(line)
            if header and not line.lstrip().startswith("#"):
                table = header.group(1).replace(" ", "")
            elif table == "days" and key and key.group(1) in ("solution", "sheet"):
                continue   # the day's own keys: the edition has no solutions and no sheets folder
            out.append(line)
    rendered = "".join(out)
    _check_manifest(text, rendered, keep)
    return rendered


def _day_blocks(lines: list[str]) -> tuple[list[str], list[tuple[str | None, list[str]]]]:
    """The lines before the first [[days]] table, then each day's lines (its [[days]] table
    with its exercises and checks), each block taking the comments just above its header."""
    starts = [i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and not line.lstrip().startswith("#")
              and m.group(1).replace(" ", "") == "days" and line.strip().startswith("[[")]
    if not starts:
        return lines, []
    cuts = []
    for start in starts:
        cut = start
        while cut > 0 and (lines[cut - 1].lstrip().startswith("#") or not lines[cut - 1].strip()):
            cut -= 1
        cuts.append(cut)
    blocks = []
    for n, cut in enumerate(cuts):
        end = cuts[n + 1] if n + 1 < len(cuts) else len(lines)
        block = lines[cut:end]
        ident = next((m.group(1) for line in block[starts[n] - cut:]
                      if (m := re.match(r'^\s*id\s*=\s*"([^"]*)"', line))), None)
        blocks.append((ident, block))
    return lines[:cuts[0]], blocks


def _student_head(head: list[str], workspace: bool) -> list[str]:
    """The top of the manifest: the kit's leading comments dropped (they describe the kit),
    [course] without `source`, with the edition's workspace and pristine labs."""
    lines = list(head)
    while lines and (lines[0].lstrip().startswith("#") or not lines[0].strip()):
        lines.pop(0)
    out: list[str] = []
    section = None

    def close_course() -> None:   # the edition's keys go after [course]'s last key
        at = len(out)
        while at > 0 and (not out[at - 1].strip() or out[at - 1].lstrip().startswith("#")):
            at -= 1
        out[at:at] = _edition_keys(workspace)

    for line in lines:
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("#"):
            if section == "course":
                close_course()
            section = header.group(1).replace(" ", "")
            out.append(line)
            continue
        key = _KEY.match(line)
        if section == "course" and key and key.group(1) in ("source", "workspace", "edition", "pristine"):
            continue
        out.append(line)
    if section == "course":
        close_course()
    return out


def _edition_keys(workspace: bool) -> list[str]:
    keys = [f'edition = "{STUDENT_EDITION}"     # no source and no solutions in it\n',
            f'pristine = "{PRISTINE_DIR}"  # each day\'s untouched lab, for `grader reset`\n']
    if workspace:
        keys.append(f'workspace = "{WORKSPACE_DIR}"  # the sample project; each child of a check gets its own copy\n')
    return keys


def _check_manifest(kit_text: str, student_text: str, keep: set[str]) -> None:
    """The rewritten manifest holds exactly the kit's data, less what the edition drops."""
    try:
        kit, student = tomllib.loads(kit_text), tomllib.loads(student_text)
    except tomllib.TOMLDecodeError as exc:
        raise ReleaseError(word("release.manifest_broken", error=exc)) from exc
    expected = dict(kit)
    expected["course"] = {k: v for k, v in kit["course"].items() if k not in ("source", "workspace")}
    expected["course"].update(edition=STUDENT_EDITION, pristine=PRISTINE_DIR)
    if "workspace" in kit["course"]:
        expected["course"]["workspace"] = WORKSPACE_DIR
    expected["days"] = [{k: v for k, v in d.items() if k not in ("solution", "sheet")}
                        for d in kit.get("days", []) if d.get("id") in keep]
    if student != expected:
        raise ReleaseError(word("release.manifest_broken", error=word("release.tables_differ")))
