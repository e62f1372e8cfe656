"""Build labs for the tests of each day's checks: the solution, its scaffold
reverts, and the solution with a patch applied (a mutant or an alternate).

Each day's corpus lives in tests/checks/dayNN/ (mutants/: plausible wrong
implementations; alternates/: correct ones written differently). A patch is a small
Python file:

    '''What this implementation does differently (the docstring).'''
    TARGET = "mca/session/replay.py"        # file the definitions below replace into
    TARGETS = {"fork": "mca/session/fork.py"}  # optional: per-name targets
    ADD = ("_is_clean",)                    # optional: new helpers (functions or classes), appended to their target
    FAILS = ("replay-counts",)              # the exact set of checks it must fail
    MAYBE = ("missing-line",)               # optional: checks it fails only on some generated
                                            # inputs (the corpus runs with a seed of its own)
    HERMETIC = True                         # optional: a cheat only the hermetic view holds (one that
                                            # reads the grader's /proc or finds the kit); graded only
                                            # where that mode is on (docs/reliability.md, "Cheats")

    import json                             # extra imports, added to each target file

    def replay(events):                     # replaces the module-level `replay`
        ...

    class SessionLog:                       # each method replaces SessionLog.<method>
        def append(self, type, **fields):
            ...

The patch file is data: it is parsed, never imported. A definition that has no
counterpart in the target is an error, so a change in the reference shows up as a
clear failure here rather than as a mutant that silently stopped testing anything.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from grader import scaffold
from grader.scaffold import trees
from grader.course import load_course

KIT = Path(__file__).resolve().parents[2]
COURSE = load_course(KIT / "course.toml")
HERE = Path(__file__).resolve().parent


class PatchError(Exception):
    pass


@dataclass
class Patch:
    name: str
    path: Path
    doc: str
    fails: frozenset[str]
    maybe: frozenset[str] = frozenset()
    hermetic: bool = False
    imports: list[str] = field(default_factory=list)
    # (target file, qualified name, source text of the replacement)
    replacements: list[tuple[str, str, str]] = field(default_factory=list)
    added: frozenset[str] = frozenset()


def load_patch(path: Path) -> Patch:
    source = path.read_text(encoding="utf-8")
    module = ast.parse(source, str(path))
    lines = source.splitlines(keepends=True)
    constants: dict[str, object] = {}
    patch = Patch(path.stem, path, ast.get_docstring(module) or "", frozenset())

    def text_of(node: ast.AST) -> str:
        start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        return textwrap.dedent("".join(lines[start - 1:node.end_lineno]))

    for node in module.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            constants[node.targets[0].id] = ast.literal_eval(node.value)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                patch.imports.append(ast.get_source_segment(source, node))
    targets = dict(constants.get("TARGETS", {}))
    default = constants.get("TARGET")
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            patch.replacements.append((targets.get(node.name, default), node.name, text_of(node)))
        elif isinstance(node, ast.ClassDef) and node.name in constants.get("ADD", ()):
            patch.replacements.append((targets.get(node.name, default), node.name, text_of(node)))  # a new class
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qualified = f"{node.name}.{item.name}"
                    target = targets.get(qualified, targets.get(node.name, default))
                    patch.replacements.append((target, qualified, text_of(item)))
    for target, qualified, _ in patch.replacements:
        if not target:
            raise PatchError(f"{path.name}: no TARGET for {qualified}")
    patch.fails = frozenset(constants.get("FAILS", ()))
    patch.maybe = frozenset(constants.get("MAYBE", ()))
    patch.hermetic = bool(constants.get("HERMETIC", False))
    patch.added = frozenset(constants.get("ADD", ()))
    return patch


def _find(module: ast.Module, qualified: str):
    scope: list[ast.stmt] = module.body
    node = None
    for part in qualified.split("."):
        node = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    return node


def replace_definition(text: str, qualified: str, replacement: str, where: str) -> str:
    module = ast.parse(text)
    node = _find(module, qualified)
    if node is None:
        raise PatchError(f"{where} has no {qualified} to replace (did the reference change?)")
    lines = text.splitlines(keepends=True)
    start = min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1
    indent = " " * node.col_offset
    new = textwrap.indent(replacement, indent, lambda line: line.strip() != "")
    return "".join(lines[:start]) + new.rstrip("\n") + "\n" + "".join(lines[node.end_lineno:])


def add_imports(text: str, imports: list[str]) -> str:
    if not imports:
        return text
    module = ast.parse(text)
    after = 0
    for node in module.body:  # after the docstring and `from __future__` lines
        if isinstance(node, ast.Expr) and isinstance(getattr(node, "value", None), ast.Constant) and after == 0:
            after = node.end_lineno
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            after = node.end_lineno
    lines = text.splitlines(keepends=True)
    return "".join(lines[:after]) + "".join(i + "\n" for i in imports) + "".join(lines[after:])


def apply_patch(tree: dict[str, bytes], patch: Patch) -> dict[str, bytes]:
    tree = dict(tree)
    touched: set[str] = set()
    for target, qualified, replacement in patch.replacements:
        if target not in tree:
            raise PatchError(f"{patch.path.name}: no file {target} in the solution")
        text = tree[target].decode("utf-8")
        if qualified in patch.added:
            text = text.rstrip("\n") + "\n\n\n" + replacement
        else:
            text = replace_definition(text, qualified, replacement, target)
        tree[target] = text.encode("utf-8")
        touched.add(target)
    for target in touched:
        tree[target] = add_imports(tree[target].decode("utf-8"), patch.imports).encode("utf-8")
        compile(tree[target], target, "exec")  # a broken patch fails here, not in a check
    return tree


def corpus_dir(day) -> Path:
    """tests/checks/day07/ for day-07."""
    return HERE / day.id.replace("-", "")


def days_with_corpus() -> list:
    return [day for day in COURSE.days if corpus_dir(day).is_dir()]


def patches(day, kind: str) -> list[Patch]:
    """Every patch in tests/checks/<day>/<kind>/, sorted by name."""
    return [load_patch(p) for p in sorted((corpus_dir(day) / kind).glob("*.py")) if not p.name.startswith("_")]


QUICK_SHARE = 4  # the quick tier grades one corpus entry in this many, per day and kind


def quick_sample() -> frozenset[str]:
    """The corpus entries the quick tier grades: per day and kind, the first quarter (at
    least one) in an order fixed by a hash of their names, so the sample is spread over
    the exercise points, stays the same from run to run, and a new entry joins it or not
    without moving the others. The full tier grades every entry."""
    chosen = set()
    for day in days_with_corpus():
        for kind in ("mutants", "alternates"):
            names = [f"{day.id}/{kind}/{p.stem}" for p in sorted((corpus_dir(day) / kind).glob("*.py"))
                     if not p.name.startswith("_")]
            names.sort(key=lambda name: hashlib.sha256(name.encode()).hexdigest())
            chosen.update(names[:max(1, -(-len(names) // QUICK_SHARE))])
    return frozenset(chosen)


def is_corpus_entry(lab_name: str) -> bool:
    return "/mutants/" in lab_name or "/alternates/" in lab_name


def build_lab(day, destination: Path, *, patch: Patch | None = None,
              revert: set[str] | None = frozenset()) -> Path:
    """Write a lab into `destination`: the solution (revert=empty), the scaffold lab
    (revert=None), a solution with some regions reverted, or the solution plus a patch."""
    tree, modes = scaffold.build(COURSE, day, lab=revert is None, revert=revert or frozenset())
    if patch is not None:
        tree = apply_patch(tree, patch)
    trees.write_tree(tree, destination, modes)
    return destination


def checks_module(day, name: str = "checks"):
    """A module of a day's checks folder, imported as the engine does (a package of its own,
    `dayNN_checks_under_test`), for the day's unit tests."""
    package_name = f"{day.checks_dir.name}_checks_under_test"
    if package_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(package_name, day.checks_dir / "__init__.py",
                                                      submodule_search_locations=[str(day.checks_dir)])
        package = importlib.util.module_from_spec(spec)
        sys.modules[package_name] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{package_name}.{name}")
