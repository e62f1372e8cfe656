"""`grader gradescope bundle DAY`: a Gradescope autograder zip that grades one day.

Gradescope's contract (its autograder specification): the zip has `setup.sh` and
`run_autograder` at its root. Gradescope unpacks it into /autograder/source, runs
setup.sh once when it builds the image, copies run_autograder to /autograder, and for
each submission runs it from /autograder with the student's files in
/autograder/submission; what it shows is /autograder/results/results.json.

The zip:

    setup.sh           picks a Python 3.11+, makes a venv in <root>/venv, installs requirements.txt
                       then the kit (pip -e), and proves it grades: `grader verify --student DAY`
    run_autograder     finds the lab in the submission (`grader gradescope find-lab`), grades it with
                       `grader check DAY --lab LAB --ci --gradescope <root>/results/results.json`, and
                       when the grader could not grade, writes a zero score with its message (`no-result`);
                       with `--sandbox` where `python -m grader.spawn.sandbox` says a PID namespace can be made
                       there (never a failure where it cannot)
    requirements.txt   the grader's dependencies, pinned to the versions where the bundle was made
    kit/               the student edition of DAY alone (grader/release/): its course.toml,
                       checks and grader, with their own record for `--ci`

<root> is /autograder, or $AUTOGRADER_ROOT (so the bundle can be run end to end anywhere).
The feedback's language is the one the bundle was made in (`--lang`), unless GRADER_LANG
says otherwise where it runs.

A submission is the student's lab: its files as they are (its mca/ folder at the top),
or its folder, or any folder holding it (a whole clone of the students' repository).
find_lab takes the one lab of the day in it: if several folders look like one, those
named like the day's lab folder first, then the shallowest.
"""

from __future__ import annotations

import json
import re
import tomllib
import zipfile
from pathlib import Path

from grader import release
from grader.course import Course, Day
from grader.i18n import language, word

TEMPLATES = release.TEMPLATES
SCRIPTS = ("setup.sh", "run_autograder")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)   # the same bytes for the same kit: a bundle can be compared
SKIPPED_NAMES = {"__MACOSX", "__pycache__", "node_modules", ".git", ".venv", "venv", ".grader"}
MAX_DEPTH = 6


class BundleError(Exception):
    """The bundle cannot be made; str() says why and what to do."""


class NoLab(Exception):
    """The submission holds no single lab of the day; str() tells the student what to upload."""


# --------------------------------------------------------------------------- the zip

def pinned_requirements(course: Course) -> tuple[list[str], list[str]]:
    """requirements.txt's lines: every distribution the kit's dependencies (pyproject.toml)
    pull in, pinned to the version installed here; and the names not installed here
    (left as the kit asks for them)."""
    from importlib import metadata

    from packaging.markers import UndefinedEnvironmentName
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads(release.project_file(course, "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [Requirement(text) for text in project.get("project", {}).get("dependencies", [])]
    pins: dict[str, str] = {}
    missing: dict[str, Requirement] = {}
    queue = [(req, frozenset(req.extras)) for req in wanted]
    seen: set[tuple[str, frozenset]] = set()
    while queue:
        req, extras = queue.pop(0)
        name = canonicalize_name(req.name)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            missing.setdefault(name, req)
            continue
        pins[name] = f"{dist.metadata['Name']}=={dist.version}"
        for text in dist.requires or []:
            try:
                sub = Requirement(text)
            except InvalidRequirement:
                continue
            try:
                needed = sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in {"", *extras})
            except UndefinedEnvironmentName:
                needed = False
            if needed:
                queue.append((sub, frozenset(sub.extras)))
    lines = [pins[name] for name in sorted(pins)] + [str(missing[name]) for name in sorted(missing)]
    return lines, sorted(missing)


def _script(name: str, day: Day) -> bytes:
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    text = text.replace("{{day}}", day.id).replace("{{lang}}", language())
    return text.encode("utf-8")


def _entry(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def bundle(course: Course, day: Day, out: Path, *, force: bool = False) -> tuple[Path, list[str]]:
    """Write the autograder zip for `day` to `out`; returns it and the dependencies left unpinned."""
    if course.is_student_edition:
        raise BundleError(word("gradescope.from_edition"))
    out = Path(out)
    if out.is_dir():
        raise BundleError(word("gradescope.is_dir", out=out))
    if out.exists() and not force:
        raise BundleError(word("gradescope.exists", out=out))
    try:
        edition = release.build(course, (day,))
        leaks = release.find_leaks(course, edition)
    except release.ReleaseError as exc:
        raise BundleError(str(exc)) from None
    if leaks:
        listed = "; ".join(leak.describe() for leak in leaks[:3])
        raise BundleError(word("release.leaks", count=len(leaks), leaks=listed))
    lines, unpinned = pinned_requirements(course)
    requirements = "\n".join([f"# {word('gradescope.requirements_head', name=course.name)}", *lines]) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    temp = out.with_name(f".{out.name}.partial")
    try:
        with zipfile.ZipFile(temp, "w") as archive:
            for name in SCRIPTS:
                archive.writestr(_entry(name, 0o755), _script(name, day))
            archive.writestr(_entry("requirements.txt", 0o644), requirements)
            for rel, data in sorted(edition.files.items()):
                archive.writestr(_entry(f"kit/{rel}", edition.modes.get(rel, 0o644)), data)
        temp.replace(out)
    finally:
        temp.unlink(missing_ok=True)
    return out, unpinned


# --------------------------------------------------------------------------- a submission

def _folders(top: Path):
    """(folder, depth) under `top`, breadth first, without hidden, cache or tool folders
    and without following links."""
    queue = [(top, 0)]
    while queue:
        folder, depth = queue.pop(0)
        yield folder, depth
        if depth >= MAX_DEPTH:
            continue
        try:
            children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
        except OSError:
            continue
        queue += [(child, depth + 1) for child in children
                  if child.name not in SKIPPED_NAMES and not child.name.startswith(".")]


def _listing(top: Path, limit: int = 8) -> str:
    try:
        entries = sorted(top.iterdir())
    except OSError:
        entries = []
    names = [p.name + ("/" if p.is_dir() else "") for p in entries]
    if not names:
        return word("gradescope.nothing")
    return ", ".join(names[:limit]) + (" ..." if len(names) > limit else "")


def find_lab(course: Course, day: Day, submission: Path) -> Path:
    """The lab of `day` in a submission; NoLab (its message for the student) if there is
    none, or several that nothing tells apart."""
    from grader.engine import not_a_lab

    submission = Path(submission)
    lab_name = Path(day.lab).name
    where = Path(day.lab).relative_to(course.root).as_posix() if Path(day.lab).is_relative_to(course.root) \
        else lab_name
    if not submission.is_dir():
        raise NoLab(word("gradescope.no_lab", day=day.id, lab=where, package=course.agent.package,
                         found=word("gradescope.nothing")))
    found = []
    labs: set[Path] = set()
    for folder, depth in _folders(submission):
        if any(folder.is_relative_to(lab) for lab in labs):
            continue   # nothing inside a lab is another lab
        if not_a_lab(course, day, folder) is None:
            found.append((folder, depth))
            labs.add(folder)
    if not found:
        raise NoLab(word("gradescope.no_lab", day=day.id, lab=where, package=course.agent.package,
                         found=_listing(submission)))
    named = [(f, d) for f, d in found if f.name == lab_name]
    pool = named or found
    shallowest = min(d for _, d in pool)
    best = [f for f, d in pool if d == shallowest]
    if len(best) > 1:
        names = ", ".join(f.relative_to(submission).as_posix() or "." for f in best)
        raise NoLab(word("gradescope.many_labs", day=day.id, labs=names, lab=where))
    return best[0]


def zero_result(day: Day, message: str) -> dict:
    """A results.json that gives no points and says why (Gradescope shows `output`)."""
    return {"score": 0, "max_score": len(day.checks_core), "output": message, "visibility": "visible",
            "stdout_visibility": "hidden", "tests": []}


def write_result(path: Path, data: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def has_result(path: Path) -> bool:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and ("score" in data or "tests" in data)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def not_graded_message(code: int, stderr: str) -> str:
    """What to tell the student when `grader check` wrote no results (exit 2, 3 or worse)."""
    lines = [_ANSI.sub("", line).rstrip() for line in stderr.splitlines() if line.strip()]
    message = "\n".join(lines[-20:]) or word("gradescope.no_message")
    key = "gradescope.tampered" if code == 3 else "gradescope.not_graded"
    return word(key, code=code, message=message)
