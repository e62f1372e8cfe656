"""Which directories are submissions, what they are called, which shard grades them, their seeds.

An argument of `grader grade` is either a submission or a directory of submissions:

* a directory holding the agent's package (`mca/`) is one submission, named after the directory;
  so is a clone of the kit whose day's lab (`labs/<slug>/mca/`) is there: that lab is graded;
* any other directory with subdirectories is a class: each subdirectory (hidden ones and
  gradebooks aside) is one submission, named after it, whether or not it looks like a lab
  (one that does not becomes a row that says so);
* any other directory (empty, or files only) is one submission that is not a lab.

Names must be unique in a batch: they key the gradebook's rows, the shards and the seeds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import word

GRADEBOOK_MARK = "batch.json"  # a directory holding it is a gradebook, never a submission


class SubmissionError(Exception):
    """The arguments do not name a usable batch; the message names the fix (exit 2)."""


@dataclass(frozen=True)
class Submission:
    name: str
    path: Path       # the directory graded: the lab itself, or the day's lab inside a clone of the kit


def is_gradebook(path: Path) -> bool:
    return (Path(path) / GRADEBOOK_MARK).is_file()


def lab_of(path: Path, package: str, in_clone: Path | None) -> Path | None:
    """The lab a directory holds: itself if it has the package, else its `in_clone` lab if that has."""
    if (path / package).is_dir():
        return path
    if in_clone is not None and (path / in_clone / package).is_dir():
        return path / in_clone
    return None


def find_submissions(paths: list[Path], package: str, in_clone: Path | None = None) -> list[Submission]:
    """Every submission the arguments name, sorted by name; SubmissionError on a bad argument.
    `in_clone`: where the day's lab sits in a clone of the kit (labs/<slug>), relative."""
    found: dict[str, Submission] = {}

    def add(name: str, path: Path) -> None:
        other = found.get(name)
        if other is not None:
            raise SubmissionError(word("grade.duplicate_name", name=name, first=other.path, second=path))
        found[name] = Submission(name, lab_of(path, package, in_clone) or path)

    for given in paths:
        path = Path(given).expanduser()
        if not path.exists():
            raise SubmissionError(word("grade.no_such_path", path=given))
        if not path.is_dir():
            raise SubmissionError(word("grade.not_a_directory", path=given))
        path = path.resolve()
        if lab_of(path, package, in_clone) is not None:
            add(path.name, path)
            continue
        inside = sorted(child for child in path.iterdir()
                        if child.is_dir() and not child.name.startswith(".") and not is_gradebook(child))
        if inside:
            for child in inside:
                add(child.name, child.resolve())
        else:
            add(path.name, path)  # empty or files only: a row that says it is not a lab
    return [found[name] for name in sorted(found)]


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """'2/5' -> (2, 5); None -> None; SubmissionError for anything else."""
    if text is None:
        return None
    head, slash, tail = text.partition("/")
    try:
        index, count = int(head), int(tail)
    except ValueError:
        index, count = 0, 0
    if not slash or count < 1 or not 1 <= index <= count:
        raise SubmissionError(word("grade.bad_shard", shard=text))
    return index, count


def shard(submissions: list[Submission], which: tuple[int, int] | None) -> list[Submission]:
    """The K-th of N slices: round-robin over the submissions sorted by name, so the slices
    differ in size by one at most, and every machine of a CI matrix cuts the same way."""
    ordered = sorted(submissions, key=lambda s: s.name)
    if which is None:
        return ordered
    index, count = which
    return [s for position, s in enumerate(ordered) if position % count == index - 1]


def seed_for(batch_seed: int, name: str) -> int:
    """A submission's own seed, from the batch's seed and its name: the same in every shard
    and every run with that batch seed, different from its classmates' (one student's seed,
    shown to them, says nothing about another's inputs)."""
    digest = hashlib.sha256(f"{batch_seed}/{name}".encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big")
