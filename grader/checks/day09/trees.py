"""Day 09: directory trees of AGENTS.md files generated for one run, and reading what
the model was sent as instructions.

A tree is a chain of directories from `top` down to the workdir, with a `.git` (a
directory or a file, as in a git worktree) at some depth, or none, an AGENTS.md in some
of the directories and files that must not be read around the path: above the root,
beside the path, below the workdir. Texts come in the three voices of the check kit
(plain English, one script, mixed), each with a marker no other file holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit.draws import mixed_text, plain_text, script_text
from grader.checkkit.turns import marker, text_of, token

CAP = 8000  # MAX_INSTRUCTIONS_CHARS, as the sheet states: characters of file text, all files together
NAME = "AGENTS.md"
ASCII_DIRS = ("src", "app", "services", "pkg", "lib", "web", "api", "core", "tools", "v2", "backend", "my project")
OTHER_DIRS = ("模块", "サービス", "서비스", "données")
VOICE_TEXT = {"plain": plain_text, "one-script": script_text, "mixed": mixed_text}
VOICE_NAMES = tuple(VOICE_TEXT)


def rules(rng, voice: str, lines: tuple[int, int] = (2, 5)) -> str:
    """An AGENTS.md text: a marker first, then a few rules in `voice`, ending in a newline."""
    say = VOICE_TEXT[voice]
    body = [f"{marker(rng, 'rule')} {say(rng)}"]
    body += [f"- {say(rng)} {marker(rng)}" for _ in range(rng.randint(*lines))]
    return "\n".join(line.replace("\n", " ") for line in body) + "\n"


def rules_of_size(rng, voice: str, size: int) -> str:
    """An AGENTS.md text of exactly `size` characters (code points), its marker first."""
    say = VOICE_TEXT[voice]
    text = f"{marker(rng, 'rule')} "
    while len(text) < size:
        text += f"- {say(rng, (6, 14))} {marker(rng)}\n".replace("\u2028", " ").replace("\x85", " ")
    text = text[:size]
    return text[:-1] + "." if text and text[-1].isspace() else text


@dataclass
class Tree:
    top: Path                 # holds everything: the parent of the chain's first directory
    chain: list[Path]         # from the outermost directory down to the workdir (the last)
    root: Path                # the repository root the agent must find (the workdir when there is no .git)
    texts: dict[Path, str] = field(default_factory=dict)  # every AGENTS.md written: path -> text

    @property
    def workdir(self) -> Path:
        return self.chain[-1]

    def put(self, directory: Path, text: str) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / NAME
        path.write_bytes(text.encode("utf-8"))
        self.texts[path] = text
        return path

    def remove(self, path: Path) -> None:
        path.unlink()
        self.texts.pop(path)

    def shown(self, path: Path) -> str:
        """The path as the bill and the header name it: from the root."""
        return path.relative_to(self.root).as_posix()

    def applying(self) -> list[Path]:
        """The files the agent must read, outermost first: from the root down to the workdir."""
        start = self.chain.index(self.root)
        return [d / NAME for d in self.chain[start:] if (d / NAME) in self.texts]

    def not_applying(self) -> list[Path]:
        wanted = set(self.applying())
        return [p for p in self.texts if p not in wanted]


def chain_names(rng, count: int) -> list[str]:
    """`count` distinct directory names, one of them not ASCII (on every path)."""
    names = rng.sample(ASCII_DIRS, count)
    names[rng.randrange(count)] = rng.choice(OTHER_DIRS)
    return names


def make_tree(top: Path, rng, depth: int, git_at: int | None, git_file: bool = False) -> Tree:
    """A chain of `depth` directories under `top`; `.git` in chain[git_at] (None: nowhere),
    a directory or, with `git_file`, a file like a submodule's or a worktree's, then with
    the superproject's `.git` directory in chain[0] above it (the nearest one is the root)."""
    chain, here = [], top
    for name in chain_names(rng, depth):
        here = here / name
        chain.append(here)
    chain[-1].mkdir(parents=True)
    root = chain[-1] if git_at is None else chain[git_at]
    if git_at is not None:
        git = chain[git_at] / ".git"
        if git_file:
            git.write_text(f"gitdir: {top}/.worktrees/{token(rng)}\n", encoding="utf-8")
            if git_at > 0:
                (chain[0] / ".git" / "refs").mkdir(parents=True)
        else:
            (git / "refs").mkdir(parents=True)
            (git / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return Tree(top, chain, root)


def add_decoys(tree: Tree, rng, voices: list[str]) -> None:
    """Files that are never read: beside the path (a sibling of a directory on it) and below
    the workdir; their texts are in `tree.texts` and outside `applying()`."""
    start = tree.chain.index(tree.root)
    beside = tree.chain[rng.randrange(start, len(tree.chain))].parent / f"{token(rng, 5)}-docs"
    tree.put(beside, rules(rng, rng.choice(voices)))
    tree.put(tree.workdir / rng.choice(["tests", "docs", "sub"]) / token(rng, 4), rules(rng, rng.choice(voices)))


# ----------------------------------------------------------------------------- the request

def instruction_messages(messages: list[dict]) -> list[dict]:
    """The system and developer messages before the first user message."""
    out = []
    for m in messages:
        if not isinstance(m, dict):
            continue
        if m.get("role") == "user":
            break
        if m.get("role") in ("system", "developer"):
            out.append(m)
    return out


def instruction_text(messages: list[dict]) -> str:
    return "\n".join(text_of(m.get("content")) for m in instruction_messages(messages))


def copies(messages: list[dict], text: str) -> int:
    """How many times `text` appears across every message of a request."""
    return sum(text_of(m.get("content")).count(text) for m in messages if isinstance(m, dict))


def names(line: str, tree: Tree, path: Path) -> bool:
    """`line` names `path`: from the root or absolutely, not as the tail of a longer path."""
    for form in (tree.shown(path), str(path)):
        if re.search(rf"(?<![\w/.\-]){re.escape(form)}(?![\w/])", line):
            return True
    return False


def strings_in(value: object) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []
