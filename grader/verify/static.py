"""The rows of `grader verify` that need no grading run: the source, the trees, the manifest.

Each row is one fact about one day, with a detail that says what to fix.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from grader import scaffold
from grader.scaffold import trees
from grader.scaffold.markers import Region

HINT_LEVELS = 3  # a nudge, the concept, a near-solution


@dataclass(frozen=True)
class VerifyRow:
    day: str
    item: str
    ok: bool
    detail: str = ""


def _listed(problems: list[str], limit: int = 5) -> str:
    return "; ".join(problems[:limit]) + (f"; and {len(problems) - limit} more" if len(problems) > limit else "")


def static_rows(course, day) -> tuple[list[VerifyRow], dict[str, Region] | None]:
    """Every static row of a day, and its regions by exercise id (None if they cannot be read)."""
    rows = [_drift_row(course, day)]
    built = {}
    try:
        built = {kind: scaffold.build(course, day, lab=(kind == "lab"))[0] for kind in ("solution", "lab")}
    except (*scaffold.ERRORS, OSError) as exc:
        rows.append(VerifyRow(day.id, "generated Python compiles", False, str(exc)))
    if built:
        rows.append(_compile_row(day, built))
        rows.append(_later_days_row(course, day, built))
    try:
        found = scaffold.day_regions(course, day)
    except (*scaffold.ERRORS, OSError) as exc:
        rows.append(VerifyRow(day.id, "one region per exercise point", False, str(exc)))
        found = None
    if found is not None:
        rows += _region_rows(day, found)
    rows += [_hint_row(day), _docstring_row(day), _mapping_row(day)]
    return rows, found


def _drift_row(course, day) -> VerifyRow:
    item = "solution and lab equal the generated ones"
    try:
        drift = scaffold.diff(course, day)
    except (*scaffold.ERRORS, OSError) as exc:
        return VerifyRow(day.id, item, False, str(exc))
    detail = _listed([str(d) for d in drift])
    if drift:
        detail += f" - regenerate with `python -m grader.scaffold {day.id}` (students: `grader reset {day.id}`)"
    return VerifyRow(day.id, item, not drift, detail or "no drift")


def _compile_row(day, built: dict[str, trees.Tree]) -> VerifyRow:
    problems = []
    for kind, tree in built.items():
        for rel, data in sorted(tree.items()):
            if rel.endswith(".py"):
                try:
                    compile(data, f"{kind}/{rel}", "exec", dont_inherit=True)
                except SyntaxError as exc:
                    problems.append(f"{kind} {rel}:{exc.lineno}: {exc.msg} (check the day markers around it)")
    return VerifyRow(day.id, "generated Python compiles", not problems, _listed(problems))


def _fingerprints(region: Region) -> list[str]:
    """The texts of a region that must not show up before its day: solution and scaffold,
    whitespace-normalised, when long enough to mean something."""
    out = []
    for text in (region.solution_text, region.scaffold_text):
        flat = " ".join(text.split())
        if len(flat) >= 40:
            out.append(flat)
    return out


def _later_days_row(course, day, built: dict[str, trees.Tree]) -> VerifyRow:
    """No exercise of a later day, neither its answer nor its scaffold, is in this day's trees."""
    problems = []
    flat = {(kind, rel): " ".join(data.decode("utf-8", "replace").split())
            for kind, tree in built.items() for rel, data in tree.items()}
    for later in course.days:
        if later.number <= day.number:
            continue
        try:
            regions = scaffold.day_regions(course, later)
        except (*scaffold.ERRORS, OSError):
            continue  # that day's own rows report it
        for region in regions.values():
            for print_ in _fingerprints(region):
                hits = sorted(f"{kind} {rel}" for (kind, rel), text in flat.items() if print_ in text)
                if hits:
                    problems.append(f"{later.id} {region.id} ({region.file}:{region.start_line}) appears in "
                                    f"{', '.join(hits)}: put it inside a '# [day {later.number}+]' block")
                    break
    return VerifyRow(day.id, "nothing from a later day", not problems, _listed(sorted(set(problems))))


def _region_rows(day, found: dict[str, Region]) -> list[VerifyRow]:
    placement, todos = [], []
    declared = {ex.id: ex for ex in day.exercises}
    for ex_id, ex in declared.items():
        region = found.get(ex_id)
        if region is None:
            placement.append(f"{ex_id} has no region: mark it in {ex.file} with "
                             f"'# BEGIN SOLUTION {day.id} {ex_id}' ... '# END SCAFFOLD {day.id} {ex_id}'")
            continue
        where = f"{region.file}:{region.start_line}"
        if Path(region.file).as_posix() != Path(ex.file).as_posix():
            placement.append(f"{ex_id}'s region is in {where} but course.toml says {ex.file}")
        if region.scaffold_text.strip() == region.solution_text.strip():
            placement.append(f"{ex_id}'s scaffold ({where}) is the same as its solution")
        if ex.kind == "todo" and f"TODO({ex_id})" not in region.scaffold_text:
            todos.append(f"{ex_id}'s scaffold ({where}) does not say TODO({ex_id}): add it to the stub")
    for extra in sorted(set(found) - set(declared)):
        r = found[extra]
        placement.append(f"region {day.id} {extra} at {r.file}:{r.start_line} is not an exercise point in "
                         "course.toml: declare it or remove its markers")
    n = len(declared)
    return [VerifyRow(day.id, "one region per exercise point", not placement,
                      _listed(placement) or f"{n} points, {n} regions"),
            VerifyRow(day.id, "TODO stubs say TODO(En)", not todos, _listed(todos))]


def _hint_row(day) -> VerifyRow:
    short = [f"{c.id} ({len(c.hints)})" for c in day.all_checks if len(c.hints) < HINT_LEVELS]
    detail = (f"fewer than {HINT_LEVELS} hint levels: {', '.join(short)} - give a nudge, the concept and a "
              "near-solution in course.toml") if short else ""
    return VerifyRow(day.id, f"every check has {HINT_LEVELS} hint levels", not short, detail)


def _docstring_row(day) -> VerifyRow:
    """A check's docstring is the sentence the student reads: the same as its title."""
    module = Path(day.checks_module)
    if not module.is_file():
        return VerifyRow(day.id, "check docstrings equal their titles", False, f"{module} is missing")
    docs = {}
    for path in sorted(module.parent.glob("*.py")):  # a day may keep some checks in modules of their own
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        except SyntaxError as exc:
            return VerifyRow(day.id, "check docstrings equal their titles", False, f"{path}:{exc.lineno}: {exc.msg}")
        docs.update({node.name: ast.get_docstring(node) for node in tree.body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")})
    problems = []
    for check in day.all_checks:
        name = "test_" + check.id.replace("-", "_")
        if name not in docs:
            problems.append(f"{module.name} has no {name}()")
        elif (docs[name] or "").strip() != check.title.strip():
            problems.append(f"{name}'s docstring differs from the title of {check.id} in course.toml")
    return VerifyRow(day.id, "check docstrings equal their titles", not problems, _listed(problems))


def _mapping_row(day) -> VerifyRow:
    declared = {ex.id for ex in day.exercises}
    problems = []
    for c in day.all_checks:
        unknown = [e for e in (*c.exercises, *c.depends) if e not in declared]
        if unknown:
            problems.append(f"{c.id} maps to unknown point(s) {', '.join(unknown)}")
    used = {e for c in day.all_checks for e in c.exercises}
    for ex_id in sorted(declared - used):
        problems.append(f"no check maps to {ex_id}: a student's work on it would go ungraded")
    return VerifyRow(day.id, "checks map to exercise points", not problems, _listed(problems))
