"""Hostile labs and one grading run of each, for tests/hostile.

A case is a small patch file in cases/ (data: parsed, never imported), in the
format of tests/checks/corpus.py, plus a few constants of its own:

    '''What the hostile code does (the docstring).'''
    TARGET = "mca/cli.py"                  # as in corpus.py: definitions replace the reference's
    APPEND = {"mca/__init__.py": "..."}    # optional: text appended to a file of the lab
    STATUSES = {"fork-points": "timeout"}  # the checks that must NOT pass, and their status
    OTHERS = "passed"                      # what every other check must report (default passed)
    KIT_COPY = True                        # optional: a kit copy of its own (it writes into it);
                                           # the other cases share one copy of the kit
    ESCAPES = True                         # optional: known to escape the grader (see the test)

`@MARKER@` in the patch or APPEND text is replaced by a unique marker, so leftover
processes can be found by their cmdline or environment, and `@KIT_GUARD@` by a word
that appears only in the path of a kit copy (hostile code that writes into "the
grader" checks it first, so it can never reach the real kit even by mistake).

A run is the real command, `python -m grader check day-07 --lab LAB --json`, in a
child process of its own session, from an empty cwd, with a hard time limit, with
GRADER_TIMEOUT_SCALE=0.1 (a 30 s turn limit becomes 3 s, a 10 s one 1 s).
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.checks import corpus as mutation

KIT = mutation.KIT
DAY = mutation.COURSE.find_day("day-07")
HERE = Path(__file__).resolve().parent
KIT_GUARD = "hostile-kit-copy"
HARD_LIMIT = 120  # seconds for one grading run; the suite asserts nothing tighter
TIMEOUT_SCALE = "0.1"  # GRADER_TIMEOUT_SCALE for these runs: a 30 s turn limit becomes 3 s

# Runs the CLI in process and writes the grader's own peak RSS (KiB) on exit.
RUN_GRADER = """
import atexit, resource, sys
rss_file, sys.argv = sys.argv[1], ["grader"] + sys.argv[2:]
atexit.register(lambda: open(rss_file, "w").write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))
from grader.cli import main
main()
"""


@dataclass
class Case:
    name: str
    doc: str
    patch: mutation.Patch
    append: dict[str, str]
    statuses: dict[str, str]
    others: str
    kit_copy: bool
    escapes: bool


def _constants(path: Path) -> dict:
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    return found


def load_case(path: Path) -> Case:
    values = _constants(path)
    patch = mutation.load_patch(path)
    return Case(path.stem.replace("_", "-"), patch.doc, patch, dict(values.get("APPEND", {})),
                dict(values.get("STATUSES", {})), values.get("OTHERS", "passed"),
                bool(values.get("KIT_COPY")), bool(values.get("ESCAPES")))


def cases() -> list[Case]:
    return [load_case(p) for p in sorted((HERE / "cases").glob("*.py")) if not p.name.startswith("_")]


def _fill(text: str, marker: str) -> str:
    return text.replace("@MARKER@", marker).replace("@KIT_GUARD@", KIT_GUARD)


def build_lab(case: Case, destination: Path, marker: str) -> Path:
    """The reference solution with the case's patch applied, written to `destination`."""
    from grader import scaffold
    from grader.scaffold import trees

    tree, modes = scaffold.build(mutation.COURSE, DAY, lab=False)
    filled = [(t, q, _fill(r, marker)) for t, q, r in case.patch.replacements]
    tree = mutation.apply_patch(tree, dataclasses.replace(case.patch, replacements=filled))
    for target, text in case.append.items():
        tree[target] = tree[target].rstrip(b"\n") + b"\n\n" + _fill(text, marker).encode("utf-8")
        compile(tree[target], target, "exec")
    trees.write_tree(tree, destination, modes)
    return destination


def copy_kit(destination: Path) -> Path:
    """A kit with its own grader package, course.toml and a fresh shipped record."""
    shutil.copytree(KIT / "grader", destination / "grader",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy2(KIT / "course.toml", destination / "course.toml")
    for name in ("source", "solutions", "labs"):
        shutil.copytree(KIT / name, destination / name, ignore=shutil.ignore_patterns("__pycache__", ".sessions"))
    env = dict(os.environ, PYTHONPATH=str(destination), PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, "-m", "grader.integrity", "--update"], cwd=destination, env=env,
                   check=True, capture_output=True)
    return destination


def tree_hash(root: Path) -> str:
    """Every path and every byte under root (a __pycache__ left behind counts too)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def grader_files_hash(kit: Path) -> str:
    digest = hashlib.sha256()
    for path in [kit / "course.toml", *sorted((kit / "grader").rglob("*"))]:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(kit)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


linux_only = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux /proc")


def uses(*keys):
    """Mark a test as needing these runs (case names, or `ci:<case>`), so they start with the others."""
    def mark(fn):
        fn.cases_used = list(keys)
        return fn
    return mark


# --------------------------------------------------------------------------- processes

def processes_with(marker: str) -> list[tuple[int, str]]:
    """(pid, cmdline) of every live process whose cmdline or environment holds `marker`."""
    needle = marker.encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read()
            try:
                with open(f"/proc/{entry}/environ", "rb") as handle:
                    environ = handle.read()
            except PermissionError:
                environ = b""
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        if state != b"Z" and (needle in cmdline or needle in environ):
            found.append((int(entry), cmdline.replace(b"\0", b" ").decode("utf-8", "replace").strip()))
    return found


def kill_all(marker: str) -> None:
    """Test hygiene: whatever escaped, it does not outlive the test session."""
    for pid, _ in processes_with(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def leftovers(marker: str, settle: float = 1.0) -> list[tuple[int, str]]:
    """Processes with the marker still alive after `settle` seconds (dying ones get the time to go)."""
    deadline = time.monotonic() + settle
    while True:
        found = processes_with(marker)
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)


# --------------------------------------------------------------------------- one grading run

@dataclass
class Run:
    case: Case
    lab: Path
    kit: Path
    marker: str
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    peak_rss_kib: int | None
    lab_before: str
    lab_after: str
    grader_before: str
    grader_after: str
    cwd_left: list[str]
    left_behind: list[tuple[int, str]]
    hard_limit_hit: bool = False
    ci_runs: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def report(self) -> dict:
        return json.loads(self.stdout)

    @property
    def statuses(self) -> dict[str, str]:
        return {c["id"]: c["status"] for c in self.report["checks"]}

    def explain(self) -> str:
        try:
            checks = self.report["checks"]
        except ValueError:
            return f"exit {self.exit_code}; stdout not JSON: {self.stdout[:500]!r}; stderr: {self.stderr[-1500:]}"
        lines = [f"exit {self.exit_code} in {self.seconds:.1f} s"]
        lines += [f"  {c['id']}: {c['status']}: {c['message'][:200]} | seen: {str(c['seen'])[:200]}"
                  for c in checks if c["status"] != "passed"]
        return "\n".join(lines)


def grader_command(kit: Path, *args: str, rss_file: Path | None = None) -> list[str]:
    if rss_file is None:
        return [sys.executable, "-m", "grader", *args]
    return [sys.executable, "-c", RUN_GRADER, str(rss_file), *args]


def grader_env(kit: Path, marker: str, scale: str = TIMEOUT_SCALE, hermetic: bool = False) -> dict[str, str]:
    """The grader's environment for a run. The cases are graded in the weaker mode (no view of
    their own, GRADER_HERMETIC=0: what they reach there is what the tests hold the grader to);
    `hermetic:` runs grade the same lab with each child in its bubblewrap view."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "GITHUB_", "PYTEST_", "MCA_"))}
    env.update(PYTHONPATH=str(kit), PYTHONDONTWRITEBYTECODE="1", GRADER_COURSE=str(kit / "course.toml"),
               GRADER_TIMEOUT_SCALE=scale, HOSTILE_MARKER=marker, NO_COLOR="1",
               GRADER_HERMETIC="1" if hermetic else "0")
    return env


def run_grader(argv: list[str], *, cwd: Path, env: dict[str, str], limit: float = HARD_LIMIT):
    """(exit code or None if the hard limit was hit, stdout, stderr, seconds)."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=limit)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - started


def grade(case: Case, base: Path, *, kit: Path | None = None, extra: tuple[str, ...] = (),
          label: str | None = None, scale: str | None = None, hermetic: bool = False) -> Run:
    """Grade the case's lab with `kit` (default: a fresh copy of the kit of its own), its
    time limits under GRADER_TIMEOUT_SCALE=`scale`: by default a tenth of the real limits
    for a case some of whose checks must wait one out, and the real limits for the others
    (nothing of theirs waits, so the shrunk limits would only turn a loaded machine into
    timeouts: a lab that floods 100 MB per run is about memory and caps, not speed)."""
    if scale is None:
        waits = "timeout" in case.statuses.values() or case.others == "timeout"
        scale = TIMEOUT_SCALE if waits else "1"
    marker = f"hostile-{case.name}-{uuid.uuid4().hex[:12]}"
    root = base / (label or case.name)
    kit = kit or copy_kit(root / KIT_GUARD)
    lab = build_lab(case, root / "lab" / "day-07-session-resume", marker)
    cwd = root / "cwd"
    cwd.mkdir()
    rss = root / "peak-rss"
    lab_before, grader_before = tree_hash(lab), grader_files_hash(kit)
    # One check at a time unless the test asks for more: the limits here are a tenth of the real
    # ones, and checks side by side on a loaded machine would decide which of them pass.
    jobs = () if "--jobs" in extra else ("--jobs", "1")
    code, out, err, seconds = run_grader(
        grader_command(kit, "check", "day-07", "--lab", str(lab), "--json", *jobs, *extra, rss_file=rss),
        cwd=cwd, env=grader_env(kit, marker, scale, hermetic))
    left = leftovers(marker)
    kill_all(marker)
    return Run(case, lab, kit, marker, code, out, err, seconds,
               int(rss.read_text()) if rss.is_file() and rss.read_text().strip() else None,
               lab_before, tree_hash(lab), grader_before, grader_files_hash(kit),
               sorted(p.name for p in cwd.iterdir() if p.name != "peak-rss"), left, hard_limit_hit=code is None)
