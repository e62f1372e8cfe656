"""Project instructions: the AGENTS.md files that say how to work in this project.

A project writes down its rules for agents in ``AGENTS.md`` files: the repository's
root holds the rules for everything, a subdirectory adds or narrows them for its own
part. At the start of a session the agent collects them, from the repository root (the
nearest directory at or above the workdir holding a ``.git``, a directory or a file as
in a git worktree; with none, the workdir alone) down to the workdir, outermost first,
so that a nearer file, read later, has the last word. Files below the workdir, beside
its path or above the root are not read.

The files are merged into one message, each under a header naming its path (relative
to the root), and sent once, as a system message right after the system prompt (the
first thing the model reads after its own instructions). The merged files hold at most
``MAX_INSTRUCTIONS_CHARS`` characters of file text (headers not counted): when they are
over it, the deepest files win. Files are kept whole from the workdir up while they
fit; the first that does not fit, and every file above it, is dropped, and the bill
says so. A deepest file that is over the cap on its own is cut to it, and the cut said.

What was merged is frozen in the session: the session's first event holds it (like the
model configuration of day 7), so a resumed session sends the text it started with, and
says which files changed on disk since (chat.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .refs.bill import estimate_tokens

INSTRUCTIONS_FILE = "AGENTS.md"
MAX_INSTRUCTIONS_CHARS = 8000  # characters of file text, all files together


@dataclass
class InstructionFile:
    """One AGENTS.md: its path as shown (relative to the root) and its text."""

    path: str
    text: str


@dataclass
class Merged:
    """The message to send, the files in it (whole or cut), and what was left out."""

    text: str                                          # "" when there is no file
    kept: list[InstructionFile] = field(default_factory=list)
    dropped: list[InstructionFile] = field(default_factory=list)
    cut: dict[str, int] = field(default_factory=dict)  # path -> the file's original size, when cut


def repository_root(workdir: Path) -> Path:
    """The nearest directory at or above ``workdir`` that holds a ``.git``; else ``workdir``."""
    workdir = workdir.resolve()
    for here in (workdir, *workdir.parents):
        if (here / ".git").exists():
            return here
    return workdir


def find_instruction_files(workdir: Path) -> list[Path]:
    """The AGENTS.md files from the repository root down to ``workdir``, outermost first."""
    workdir = workdir.resolve()
    root = repository_root(workdir)
    chain = [workdir]
    while chain[-1] != root:
        chain.append(chain[-1].parent)
    found = [here / INSTRUCTIONS_FILE for here in reversed(chain)]
    return [path for path in found if path.is_file()]


def read_instructions(paths: list[Path], root: Path) -> list[InstructionFile]:
    """Each file's text as it is on disk (UTF-8; what cannot be read is replaced), named by
    its path relative to the root (a file outside it, by its absolute path)."""
    files = []
    for path in paths:
        path, root = path.resolve(), root.resolve()
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        files.append(InstructionFile(shown, path.read_bytes().decode("utf-8", errors="replace")))
    return files


def header(path: str) -> str:
    return f"# Instructions from {path}"


def merge(files: list[InstructionFile], cap: int = MAX_INSTRUCTIONS_CHARS) -> Merged:
    """``files`` (outermost first) as one message, each under its header, at most ``cap``
    characters of file text: the deepest files win."""
    kept: list[InstructionFile] = []
    cut: dict[str, int] = {}
    left = cap
    for position in range(len(files) - 1, -1, -1):  # from the workdir up: the nearest first
        file = files[position]
        if len(file.text) <= left:
            kept.insert(0, file)
            left -= len(file.text)
        elif not kept:  # the deepest file alone is over the cap: its head, and the cut said
            kept.insert(0, InstructionFile(file.path, file.text[:cap]))
            cut[file.path] = len(file.text)
            left = 0
        else:
            break
    dropped = files[:len(files) - len(kept)]
    parts = []
    for file in kept:
        note = f"\n[cut: the first {len(file.text)} of {cut[file.path]} chars]" if file.path in cut else ""
        parts.append(f"{header(file.path)}\n\n{file.text}{note}")
    return Merged("\n\n".join(parts), kept, dropped, cut)


@dataclass
class Instructions:
    """The instructions in force in a session: what its first event holds."""

    text: str = ""
    files: list[dict] = field(default_factory=list)    # path, chars, tokens, sha256 (of the file on disk)
    dropped: list[dict] = field(default_factory=list)  # path, chars
    workdir: str = ""

    def message(self) -> dict | None:
        """The system message that carries them (None: there is nothing to send)."""
        return {"role": "system", "content": self.text} if self.text else None

    def record(self) -> dict:
        return {"text": self.text, "files": self.files, "dropped": self.dropped, "workdir": self.workdir,
                "chars": sum(f["chars"] for f in self.files), "tokens": sum(f["tokens"] for f in self.files)}

    @classmethod
    def from_record(cls, record: object) -> Instructions | None:
        """The instructions a session's first event froze (None: it froze none, an older log)."""
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            return None
        files = [f for f in record.get("files") or [] if isinstance(f, dict)]
        dropped = [f for f in record.get("dropped") or [] if isinstance(f, dict)]
        return cls(record["text"], files, dropped, str(record.get("workdir") or ""))

    def bill(self) -> list[str]:
        """One line per file sent, the files dropped, then the total (printed even when zero)."""
        lines = []
        for f in self.files:
            cut = f" (cut from {f['original']} chars)" if f.get("original") else ""
            lines.append(f"instructions: {f['path']} {f['chars']} chars ≈ {f['tokens']} tokens{cut}")
        for f in self.dropped:
            lines.append(f"instructions: dropped {f['path']} ({f['chars']} chars): over the "
                         f"{MAX_INSTRUCTIONS_CHARS}-char budget, the deeper files win")
        chars, tokens = sum(f["chars"] for f in self.files), sum(f["tokens"] for f in self.files)
        noun = "file" if len(self.files) == 1 else "files"
        lines.append(f"instructions: total {len(self.files)} {noun}, {chars} chars ≈ {tokens} tokens")
        return lines


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_instructions(workdir: Path) -> Instructions:
    """Find, read and merge the project's instructions for a new session."""
    root = repository_root(workdir)
    on_disk = read_instructions(find_instruction_files(workdir), root)
    merged = merge(on_disk)
    original = {f.path: f.text for f in on_disk}
    files = [{"path": f.path, "chars": len(f.text), "tokens": estimate_tokens(f.text),
              "sha256": digest(original.get(f.path, f.text)), **({"original": merged.cut[f.path]}
                                                                 if f.path in merged.cut else {})}
             for f in merged.kept]
    dropped = [{"path": f.path, "chars": len(f.text), "sha256": digest(f.text)} for f in merged.dropped]
    return Instructions(merged.text, files, dropped, str(Path(workdir).resolve()))


def changed_files(frozen: Instructions, workdir: Path) -> list[str]:
    """Notes for every instruction file that differs on disk from what the session froze:
    changed, removed, or new (read, or dropped for the budget, when the session started)."""
    root = repository_root(workdir)
    now = {f.path: digest(f.text) for f in read_instructions(find_instruction_files(workdir), root)}
    then = {f["path"]: f.get("sha256") for f in frozen.files + frozen.dropped}
    notes = []
    for path, sha in then.items():
        if path not in now:
            notes.append(f"{path} was removed")
        elif now[path] != sha:
            notes.append(f"{path} changed")
    notes += [f"{path} is new" for path in now if path not in then]
    return notes
