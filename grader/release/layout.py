"""What the student edition holds and where (its folders inside the edition, the kit's own
templates), and the objects the release works on: `Edition` (the edition in memory),
`Written` (what writing it did), `ReleaseError`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from grader.course import Day

EDITION_DIR = "grader/edition"
PRISTINE_DIR = f"{EDITION_DIR}/labs"
WORKSPACE_DIR = f"{EDITION_DIR}/workspace"
EDITION_FILE = f"{EDITION_DIR}/edition.toml"
RECORD_FILE = "grader/shipped.sha256"
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"   # the kit's own: never shipped
README_TEMPLATE = TEMPLATES / "README.md"
GITIGNORE = ("__pycache__/", "*.py[cod]", "*.egg-info/", ".venv/", "venv/", "build/", "dist/", ".grader/",
             ".sessions/", ".pytest_cache/")


class ReleaseError(Exception):
    """The edition cannot be made or written; str() says why and what to do."""


@dataclass
class Edition:
    """The student edition in memory: relative path -> bytes, and permission bits."""

    days: tuple[Day, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)

    def add(self, rel: str, data: bytes, mode: int = 0o644) -> None:
        self.files[rel] = data
        self.modes[rel] = mode


@dataclass(frozen=True)
class Written:
    """What write() did."""

    out: Path
    files: int
    removed: tuple[str, ...]    # files of an earlier edition that this one no longer has
