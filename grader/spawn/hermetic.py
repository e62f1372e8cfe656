"""Hermetic lab children: each in a file-system view of its own, made by bubblewrap.

A lab child started through `View.wrap` runs under `bwrap` (the engine Flatpak uses) and
sees only: the system's programs and libraries (/usr, /bin, /lib*, /etc, read-only), the
interpreter's own prefix with its standard library (its site-packages empty: the agent uses
the standard library only, and a person's interpreter may hold any packages, or none) and the
other directories of the child's PATH (read-only; the kit's are not on it), an empty HOME
and /tmp, and the run's scratch root (read-write, as `work` in that HOME: `PathMap`, so nothing the child is handed lies in a temporary directory;
the paths it is handed and the paths it prints are rewritten between the two places), in
which the copy of the checks is masked by an empty directory. The kit, `solutions/`, the other
days' labs, the student's own lab, the grader package and its virtualenv are not there.
It gets a PID namespace and a /proc of its own (`--unshare-pid --proc /proc`): no other
process of the machine is visible, so no parent's command line, working directory or
interpreter leads back to the kit; when the child's init goes, everything it started goes
with it (`--die-with-parent` too, if the grader is killed). The network is shared: the
checks' fake model servers listen on 127.0.0.1 in the grader.

`find()` probes once per process whether `bwrap` exists and runs a command in such a view
(`true`), and remembers why not (no bwrap, user namespaces off, a container that forbids
them, not Linux). Without it the children run as before, in the weaker mode
docs/reliability.md describes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import word

# the probe child also says where the interpreter's site-packages are (the kit runs in a
# virtualenv: its own `site` names the virtualenv's, not the base interpreter's the children run)
_SITE_DIRS = "import json, site; print(json.dumps(site.getsitepackages()))"
PROBE_TIMEOUT = 10.0  # seconds for `bwrap ... true`: milliseconds when it works
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")


@dataclass(frozen=True)
class Found:
    """bwrap's path (and env's), or why hermetic children cannot be made here."""

    bwrap: str | None
    why: str = ""
    env: str = "env"
    site: tuple[str, ...] = ()  # the interpreter's site-packages: empty in the view


def within(path: str, roots) -> bool:
    """`path` is one of `roots` or lies below one of them."""
    return any(path == str(root) or path.startswith(str(root).rstrip("/") + "/") for root in roots)


@dataclass(frozen=True)
class PathMap:
    """Where the run's scratch root (`host`, a temporary directory) appears in the view (`view`,
    a directory under the child's HOME, as a person's projects are): every path a child is
    handed (argv, environment, stdin, a job file) is rewritten to the view's, and every path it
    prints back to the host's, so a check reads what it would read without the view."""

    host: str
    view: str

    def _swap(self, text: str, old: str, new: str) -> str:
        if old not in text:
            return text
        return re.sub(re.escape(old) + r"(?![\w.-])", lambda _: new, text)

    def to_view(self, text: str) -> str:
        return self._swap(text, self.host, self.view)

    def to_host(self, text: str) -> str:
        return self._swap(text, self.view, self.host)

    def env_to_view(self, env: dict[str, str]) -> dict[str, str]:
        return {key: self.to_view(value) for key, value in env.items()}


def view_of(host: Path, home: str | None) -> PathMap:
    """The view's place for the scratch root `host`: `work` in the child's HOME (an empty one of
    its own in the view), or in `/home/user` when HOME is unset or a system directory."""
    if not home or home == "/" or within(home, _SYSTEM):
        home = "/home/user"
    return PathMap(str(host), os.path.join(home, "work"))


_found: Found | None = None
_lock = threading.Lock()


def _interpreter_dirs(python: str) -> list[str]:
    """What the interpreter needs to run: its prefix (the standard library beside it) and
    the directory of the binary it really is."""
    real = Path(os.path.realpath(python))
    dirs = {str(real.parent)}
    for prefix in (sys.base_prefix, sys.base_exec_prefix):
        dirs.add(os.path.realpath(prefix))
    # a prefix a link of the binary leads to (a pyenv shim, a Homebrew Cellar): its bin's parent
    dirs.add(str(real.parent.parent))
    return sorted(d for d in dirs if d not in ("/", "") and os.path.isdir(d))


def command(python: str, writable: tuple[Path, ...], masked: tuple[Path, ...] = (), *,
            chdir: str | None = None, home: str | None = None, bwrap: str = "bwrap", env: str | None = None,
            readable: tuple[str, ...] = (), paths: PathMap | None = None,
            site: tuple[str, ...] = ()) -> list[str]:
    """The bwrap argv prefix for one child (the child's own argv follows it).

    With `env` (coreutils' env): bwrap itself ignores SIGINT and the child gets it back as
    the default. A check's Ctrl-C goes to the child's process group, bwrap included: bwrap
    would die of it, and the child with it (`--die-with-parent`), where a plain run's REPL
    reads Ctrl-C and goes on."""
    argv = [env, "--ignore-signal=INT"] if env else []
    argv += [bwrap, "--unshare-pid", "--die-with-parent", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in _SYSTEM:
        if os.path.exists(path):
            kind = "--ro-bind" if not os.path.islink(path) else "--symlink"
            argv += [kind, os.readlink(path), path] if kind == "--symlink" else [kind, path, path]
    if home and home != "/" and not within(home, writable) and not within(home, _SYSTEM):
        argv += ["--tmpfs", home]  # a home of its own: nothing of the grader's user is there
    for path in _interpreter_dirs(python):
        if not within(path, _SYSTEM):
            argv += ["--ro-bind", path, path]
    for path in readable:  # the child's PATH outside the system's dirs: the commands a person has
        if os.path.isabs(path) and not within(path, _SYSTEM):
            argv += ["--ro-bind-try", path, path]
    for path in site:  # the interpreter and its standard library only: the agent imports nothing else
        if os.path.isdir(path) and not within(path, writable):
            argv += ["--tmpfs", path]
    seen = paths.to_view if paths is not None else str
    for path in writable:  # at the view's own path (`paths`), or at the same one
        argv += ["--bind", str(path), seen(str(path))]
    for path in masked:
        if Path(path).is_dir():
            argv += ["--tmpfs", seen(str(path))]
    if chdir:
        argv += ["--chdir", seen(str(chdir))]
    return argv + ["--", *([env, "--default-signal=INT"] if env else [])]


def find(python: str | None = None) -> Found:
    """bwrap, if it runs a child in a view of its own here; probed once per process."""
    global _found
    with _lock:
        if _found is not None:
            return _found
        _found = _probe(python or sys.executable)
        return _found


def _probe(python: str) -> Found:
    if not sys.platform.startswith("linux"):
        return Found(None, word("hermetic.not_linux", platform=sys.platform))
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Found(None, word("hermetic.no_bwrap"))
    env = shutil.which("env", path="/usr/bin:/bin")
    if env is None:
        return Found(None, word("hermetic.no_env"))
    argv = command(python, (), bwrap=bwrap, env=env) + [os.path.realpath(python), "-I", "-S", "-c", _SITE_DIRS]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Found(None, word("hermetic.failed", error=exc))
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()  # also: an env before coreutils 8.31
        return Found(None, word("hermetic.failed", error=reason[-1] if reason else f"exit status {done.returncode}"))
    try:
        site = tuple(str(p) for p in json.loads(done.stdout.decode("utf-8", "replace").strip().splitlines()[-1]))
    except (ValueError, IndexError, TypeError):
        site = ()
    return Found(bwrap, env=env, site=site)


def forget() -> None:
    """Probe again next time (tests)."""
    global _found
    with _lock:
        _found = None
