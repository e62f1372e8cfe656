"""Starting the lab's code: an isolated interpreter, a scrubbed environment, honest repro lines.

A lab child runs the *base* interpreter (not the kit's virtualenv) with `-I -S`:
isolated mode ignores PYTHON* variables, the user's site dir and the current
directory, and `-S` keeps every installed package (the grader's own included) out
of reach. The agent uses the standard library only, so it needs nothing more. A
tiny launcher puts the lab on `sys.path` and runs the agent's package as
`__main__`. The environment loses the agent's own variables (`MCA_*`: a student's
API key never reaches a check), the grader's (`GRADER_*`), the virtualenv's, `PWD`
and every path inside the kit. `python` and `python3` come first on the child's PATH
(`python_dir`), so a command the agent runs finds the grading interpreter on a machine
that has only `python3`. Where bubblewrap works, each child also runs in a view of its
own (hermetic.py). What this does not stop is in docs/reliability.md.

The reproduce line a check prints is built here, once, from the student's own lab
(not the graded copy), so the same line shows whether a fix worked.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from grader.course import Agent
from grader.spawn import hermetic
from grader.spawn.child import Child, ChildResult, run, start


def base_python() -> str:
    """The interpreter the kit's virtualenv was made from (or this one, outside a venv)."""
    base = getattr(sys, "_base_executable", None)
    return base if base and os.path.exists(base) else sys.executable


PYTHON_NAMES = ("python", "python3")


def python_dir(directory: Path, python: str) -> Path:
    """`directory` holding `python` and `python3`, links to `python`: first on a child's PATH,
    the names a person types (the mock's `python -m unittest`, a student's subprocess call)
    run the interpreter that grades them, on a machine whose PATH has only `python3` too.
    No pyvenv.cfg beside them: each runs as the interpreter it links to."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name in PYTHON_NAMES:
        link = directory / name
        if not link.is_symlink():
            link.symlink_to(python)
    return directory


_LAUNCHER = ("import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
             "runpy.run_module(sys.argv.pop(1), run_name='__main__', alter_sys=True)")
_HARNESS_PRELUDE = "import sys\nsys.path.insert(0, sys.argv.pop(1))  # the lab whose code this harness calls\n"
_PROBE = """
import importlib, pkgutil, sys
sys.path.insert(0, sys.argv[1])
package = importlib.import_module(sys.argv[2])
for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    if not module.name.endswith(".__main__"):  # the entry point runs the program when imported
        importlib.import_module(module.name)
if len(sys.argv) < 4:
    print("imported")
else:  # then, in the same child, the entry point as `python -m PACKAGE --help` runs it
    import runpy
    print("\\n" + sys.argv[3], flush=True)
    name = sys.argv[2]
    sys.argv[:] = [sys.argv[0], "--help"]
    runpy.run_module(name, run_name="__main__", alter_sys=True)
"""
# For the children's own children: no bytecode in the workspace a check compares. (No NO_COLOR: a
# person's shell seldom has it, so it told a graded run; the tools the agent runs write to pipes.)
_ALWAYS = {"PYTHONDONTWRITEBYTECODE": "1"}
_DROPPED = ("VIRTUAL_ENV", "PWD", "OLDPWD", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "_")


@dataclass
class LabRunner:
    """Runs one lab's agent and harnesses for the checks of one grading run."""

    lab: Path                      # the copy being graded
    agent: Agent
    shown_lab: Path | None = None  # the student's own lab, for reproduce lines
    pycache: Path | None = None    # share compiled bytecode here (never inside a lab)
    scratch_copy: bool = False     # `lab` is the run's own copy: its bytecode may be cached in it
    kit_paths: tuple[Path, ...] = ()
    on_finish: Callable[[ChildResult], None] | None = None
    python: str = field(default_factory=base_python)
    python_bin: Path | None = None  # a `python_dir`, put first on every child's PATH
    hermetic: "hermetic.Found | None" = None  # bwrap: every child in a view of its own (hermetic.py)
    writable: tuple[Path, ...] = ()  # ... that holds these read-write (the run's scratch root)
    masked: tuple[Path, ...] = ()    # ... and these as empty directories (the copy of the checks)
    paths: "hermetic.PathMap | None" = None  # ... where the scratch root is somewhere else (under HOME)

    def _wrap(self, argv: list[str], cwd, env: dict[str, str]) -> list[str]:
        if self.hermetic is None or not self.hermetic.bwrap:
            return argv
        path = tuple(p for p in env.get("PATH", "").split(os.pathsep)
                     if p and not hermetic.within(p, self.writable))
        if self.paths is not None:
            argv = [self.paths.to_view(str(a)) for a in argv]
        return hermetic.command(self.python, self.writable, self.masked, chdir=str(cwd), home=env.get("HOME"),
                                bwrap=self.hermetic.bwrap, env=self.hermetic.env, readable=path,
                                paths=self.paths, site=self.hermetic.site) + argv

    def in_view(self, text: str) -> str:
        """`text` (a job, a path) as a lab child sees it: the view's paths where it has one."""
        return self.paths.to_view(text) if self.paths is not None and self._viewed() else text

    # -- environment -------------------------------------------------------------

    def env(self, extra: dict[str, str] | None = None, *, mock: bool = True) -> dict[str, str]:
        """The grader's environment without the agent's, the grader's and the kit's traces."""
        kit = [str(p) for p in self.kit_paths]
        env = {}
        for key, value in os.environ.items():
            # PYTHON*: the grader's own interpreter settings (a bytecode prefix, a path), which
            # -I ignores anyway; left in, they name the grader's or pytest's scratch dirs
            if key.startswith((self.agent.env_prefix, "GRADER_", "PYTEST_", "PYTHON")) or key in _DROPPED:
                continue
            if key == "PATH":
                value = os.pathsep.join(p for p in value.split(os.pathsep)
                                        if p and not any(p == k or p.startswith(k + os.sep) for k in kit))
            elif any(k in value for k in kit):
                continue
            env[key] = value
        if self.python_bin is not None:
            env["PATH"] = os.pathsep.join(p for p in (str(self.python_bin), env.get("PATH")) if p)
        env.update(_ALWAYS)
        if mock:
            env.update(self.agent.mock_env)
        else:  # a MOCK=1 exported in the grader's shell must not turn a real-gateway check into a mock one
            for key in self.agent.mock_env:
                env.pop(key, None)
        env.update(extra or {})
        return env

    def _flags(self, unbuffered: bool = True) -> list[str]:
        """`-u` (unbuffered stdout and stderr) for every child, unless a check asks to see the
        agent as a person runs it: then a write without a flush stays in the buffer, as it does
        for them (stdout on a pipe or a terminal is buffered)."""
        flags = [self.python, "-I", "-S", *(["-u"] if unbuffered else []), "-X", "utf8"]
        if self.scratch_copy:  # the lab's modules compile once into the copy's __pycache__, and the
            return flags       # standard library's own bytecode is used (a pycache prefix would hide it)
        return flags + (["-X", f"pycache_prefix={self.pycache}"] if self.pycache else ["-B"])

    def _shown_env(self, env: dict[str, str]) -> str:
        """The variables a reproduce line must set: those a check chose, never the scrubbed rest."""
        shown = {k: v for k, v in env.items() if k in self.agent.mock_env or os.environ.get(k) != v}
        shown = {k: v for k, v in shown.items() if k not in _ALWAYS and k not in ("PATH", "PYTHONPATH")}
        line = " ".join(f"{k}={shlex.quote(v)}" for k, v in shown.items())
        if self.python_bin is not None and shutil.which("python") is None:
            # a shell without `python` (only `python3`): the line puts the run's own first, as the child had it
            line = f'PATH={shlex.quote(str(self.python_bin))}:"$PATH" ' + line
        return line.strip()

    def _options(self, shown: str, cwd, env, python_path: bool) -> dict:
        lab = shlex.quote(str(self.shown_lab or self.lab))
        prefix = self._shown_env(env)
        path = f"PYTHONPATH={lab} " if python_path else ""
        repro = f"cd {shlex.quote(str(cwd))} && {prefix + ' ' if prefix else ''}{path}{shown}"
        return {"shown": shown, "repro": repro, "on_finish": self.on_finish,
                "paths": self.paths if self._viewed() else None}

    # -- the agent -----------------------------------------------------------------

    def _viewed(self) -> bool:
        return self.hermetic is not None and bool(self.hermetic.bwrap)

    def agent_argv(self, *args: str, unbuffered: bool = True) -> list[str]:
        """In a hermetic view, `python -m <agent> ARGS` with the lab on PYTHONPATH, as a person
        runs it (the command line, sys.argv, sys.flags and sys.path are theirs; in the view no
        grader package and no PYTHON* setting of the grader's is there to isolate it from);
        else the isolated interpreter and a launcher that puts the lab on sys.path."""
        if self._viewed():
            return [self.python, *(["-u"] if unbuffered else []), "-m", self.agent.package, *args]
        return [*self._flags(unbuffered), "-c", _LAUNCHER, str(self.lab), self.agent.package, *args]

    def _agent(self, args, cwd, extra_env, mock, unbuffered=True):
        env = self.env(extra_env, mock=mock)
        if not unbuffered:  # -I ignores it anyway; gone, so nothing about the child says "unbuffered"
            env.pop("PYTHONUNBUFFERED", None)
        if self._viewed():  # what the reproduce line sets too
            env["PYTHONPATH"] = str(self.lab)
            if "PYTHONDONTWRITEBYTECODE" not in os.environ:  # without -I it would be the agent's own
                env.pop("PYTHONDONTWRITEBYTECODE", None)     # setting (sys.flags), which a person's is not
        shown = shlex.join(["python", "-m", self.agent.package, *args])
        argv = self.agent_argv(*args, unbuffered=unbuffered)
        return argv, env, self._options(shown, cwd, env, python_path=True)

    def run_agent(self, *args: str, cwd: Path, timeout: float = 30, input: str | None = None,
                  extra_env: dict[str, str] | None = None, mock: bool = True,
                  unbuffered: bool = True) -> ChildResult:
        """`python -m <agent> ARGS` from `cwd`, to completion (ChildTimeout past `timeout`).
        `unbuffered=False`: without `-u`, as a student runs it (see `_flags`)."""
        argv, env, options = self._agent(args, cwd, extra_env, mock, unbuffered)
        return run(self._wrap(argv, cwd, env), cwd=cwd, env=env, timeout=timeout, input=input, **options)

    def start_agent(self, *args: str, cwd: Path, extra_env: dict[str, str] | None = None,
                    mock: bool = True, tty: bool = False, unbuffered: bool = True) -> Child:
        """Start `python -m <agent> ARGS` (a REPL, or a round to interrupt) and return the Child.
        `tty`: on a pseudo-terminal of its own, as a person at a terminal runs it; `unbuffered=False`:
        without `-u`, so output the agent never flushes stays where a person would not see it either."""
        argv, env, options = self._agent(args, cwd, extra_env, mock, unbuffered)
        return start(self._wrap(argv, cwd, env), cwd=cwd, env=env, tty=tty, **options)

    # -- harnesses: grader-written code that calls the lab's functions ------------------

    def write_harness(self, directory: Path, name: str, code: str) -> Path:
        path = Path(directory) / f"{name}.py"
        path.write_text(_HARNESS_PRELUDE + code, encoding="utf-8")
        return path

    def run_harness(self, script: Path, *args: str, cwd: Path, timeout: float = 30, input: str | None = None,
                    extra_env: dict[str, str] | None = None, mock: bool = True, tty: bool = False) -> ChildResult:
        """Run a harness file (see write_harness) with the lab importable; args follow the lab path.
        `mock=False`: without the mock switched on (a harness that runs the agent against a server).
        `tty`: on a pseudo-terminal of its own, as the agent runs at a person's terminal (no `input`
        then; its stdout and stderr come back as one stream, in `stdout`)."""
        env = self.env(extra_env, mock=mock)
        shown = shlex.join(["python", str(script), str(self.shown_lab or self.lab), *args])
        options = self._options(shown, cwd, env, python_path=False)
        argv = self._wrap([*self._flags(), str(script), str(self.lab), *args], cwd, env)
        if tty:
            if input is not None:
                raise ValueError("a harness on a terminal reads no input")
            with start(argv, cwd=cwd, env=env, tty=True, **options) as child:
                return child.wait(timeout)
        return run(argv, cwd=cwd, env=env, timeout=timeout, input=input, **options)

    def start_harness(self, script: Path, *args: str, cwd: Path,
                      extra_env: dict[str, str] | None = None) -> Child:
        """Start a harness file and return the Child (one that holds something open while
        the check runs another process, say)."""
        env = self.env(extra_env)
        shown = shlex.join(["python", str(script), str(self.shown_lab or self.lab), *args])
        options = self._options(shown, cwd, env, python_path=False)
        return start(self._wrap([*self._flags(), str(script), str(self.lab), *args], cwd, env), cwd=cwd, env=env,
                     **options)

    def probe(self, cwd: Path, timeout: float) -> ChildResult:
        """Import every module of the lab's package once: does the lab start at all?
        `timeout` is taken as it is (not scaled again)."""
        with self.start_probe(cwd) as child:
            return child.wait(timeout, exact=True)

    def start_probe(self, cwd: Path, then_help: str | None = None) -> Child:
        """The probe of `probe`, started and left running: the caller does other work while
        the lab's package imports, then waits for the Child. `then_help`, a marker: once every
        module imported, the child prints it on a line of its own and runs the entry point
        with `--help` (as `python -m` does), so one child tells both whether the lab imports
        (the marker came) and whether the agent answers (the child finished)."""
        env = self.env()
        shown = f"python -c 'import {self.agent.package} and all its modules'"
        if then_help is not None:
            shown = f"python -c 'import {self.agent.package} and all its modules; python -m {self.agent.package} --help'"
        options = self._options(shown, cwd, env, python_path=True)
        marker = [then_help] if then_help is not None else []
        return Child(self._wrap([*self._flags(), "-c", _PROBE, str(self.lab), self.agent.package, *marker], cwd, env),
                     cwd=cwd, env=env, stdin=False, **options)
