"""No import cycle in grader/: every module, every import in it (at the top, inside a
function, under a condition), read with ast, and no module reachable from itself.

A cycle makes importing one of its modules first depend on which other module some
earlier code happened to import (a module that imports the CLI back works only after
the CLI is loaded); commands reach the app through one table instead (grader/commands/app.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parents[2] / "grader"


def module_names(root: Path = GRADER) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports_of(name: str, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """(module imported, line) for each import of `name` that reaches a grader module.

    `from a import b` reaches `a.b` when that is a module, else `a`; importing `a.b.c`
    also runs the packages `a` and `a.b`, unless they are the importer's own (already
    being run when it is imported). A name taken from the importer's own package
    (`from grader.pkg import X` in grader/pkg/mod.py) reaches that package's
    __init__: a cycle if the __init__ imports the module back."""
    path = modules[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    own = set(_ancestors(name)) | {name}
    found: list[tuple[str, int]] = []

    def reach(target: str, line: int) -> None:
        for one in _ancestors(target):
            if one in modules and one not in own:
                found.append((one, line))
        if target in modules and target != name:
            found.append((target, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                reach(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in modules]
            if len(submodules) < len(node.names) or source not in own:
                reach(source, node.lineno)  # a name defined in `source` itself, or `source` run first
            else:
                reach(source.rpartition(".")[0], node.lineno)  # only submodules: the package is already running
            for one in submodules:
                reach(one, node.lineno)
    return found


def import_graph(root: Path = GRADER) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the first line that does}."""
    modules = module_names(root)
    graph: dict[str, dict[str, int]] = {}
    for name in modules:
        edges: dict[str, int] = {}
        for target, line in imports_of(name, modules):
            if target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), shortest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so a deep graph cannot overflow the stack
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        one = stack.pop()
                        on_stack.discard(one)
                        group.add(one)
                        if one == node:
                            break
                    if len(group) > 1:
                        groups.append(group)

    for name in sorted(graph):
        if name not in index:
            visit(name)
    found = []
    for group in groups:  # for each module of the group, a shortest way back to it inside the group
        seen = set()
        for first in sorted(group):
            cycle = _shortest_back(graph, group, first)
            key = frozenset(zip(cycle, cycle[1:]))
            if key not in seen:
                seen.add(key)
                found.append(cycle)
    return sorted(found, key=len)


def _shortest_back(graph: dict[str, dict[str, int]], group: set[str], first: str) -> list[str]:
    paths = {first: [first]}
    queue = [first]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node]):
            if child == first:
                return paths[node] + [first]
            if child in group and child not in paths:
                paths[child] = paths[node] + [child]
                queue.append(child)
    raise AssertionError(f"{first} is in a strongly connected group but no way back was found")


def describe(cycle: list[str], graph: dict[str, dict[str, int]], modules: dict[str, Path]) -> str:
    steps = [f"{modules[a].relative_to(GRADER.parent)}:{graph[a][b]} imports {b}" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(cycle) + "\n    " + "\n    ".join(steps)


def test_grader_has_no_import_cycle():
    graph = import_graph()
    modules = module_names()
    assert len(graph) > 50  # the walk found the package
    found = cycles(graph)
    assert not found, "import cycles in grader/:\n  " + "\n  ".join(describe(c, graph, modules) for c in found)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "grader"


@pytest.mark.parametrize("files, expected", [
    ({"grader/__init__.py": "", "grader/a.py": "import grader.b\n", "grader/b.py": "from grader import a\n"},
     ["grader.a", "grader.b", "grader.a"]),
    ({"grader/__init__.py": "", "grader/a.py": "def f():\n    from .sub import c\n",
      "grader/sub/__init__.py": "", "grader/sub/c.py": "from ..a import f\n"},
     ["grader.a", "grader.sub.c", "grader.a"]),
    ({"grader/__init__.py": "", "grader/sub/__init__.py": "from grader.sub.c import x\n",
      "grader/sub/c.py": "x = 1\n", "grader/d.py": "import grader.sub.c\n",
      "grader/e.py": "if True:\n    from grader.sub import c\n"}, None),
    ({"grader/__init__.py": "", "grader/sub/__init__.py": "from grader.d import y\n",
      "grader/sub/c.py": "x = 1\n", "grader/d.py": "from grader.sub.c import x\ny = 2\n"},
     ["grader.d", "grader.sub", "grader.d"]),
    ({"grader/__init__.py": "", "grader/sub/__init__.py": "X = 1\nfrom grader.sub.c import y\n",
      "grader/sub/c.py": "from grader.sub import X\ny = X\n"},
     ["grader.sub", "grader.sub.c", "grader.sub"]),
])
def test_the_walk_finds_cycles_at_any_depth(tmp_path, files, expected):
    """The test above can fail: a cycle through a function's import, a relative import or
    a package's __init__ is found; a package importing its own module is not a cycle."""
    root = _write(tmp_path, files)
    found = cycles(import_graph(root))
    assert found == ([expected] if expected else [])
