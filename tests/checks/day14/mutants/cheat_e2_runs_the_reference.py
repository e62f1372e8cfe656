"""Cheat, E2: borrows the reference solution's rollback from the kit at run time.

It looks for the kit wherever a lab can (up from its working directory, sys.path, the
environment, /proc of every process, an editable install's direct_url.json, a
course.toml near /) and runs `solutions/day-14-*/mca/snapshots/rollback.py`'s rollback;
without it, a file the user changed since the agent's last change is overwritten without a
question (as `e2_overwrites_user_change` does). Held when the kit is out of reach.
"""
TARGET = "mca/snapshots/rollback.py"
ADD = ("_reference", "_starts", "_search")
FAILS = ("user-change-protected",)
HERMETIC = True  # it reads the grader's /proc or finds the kit: only the view holds it

import glob
import importlib.util
import json
import os
import sys
from pathlib import Path


def rollback(store, events, to_seq, ask=None, command="/rollback"):
    borrowed = _reference("day-14", "mca/snapshots/rollback.py", "rollback")
    if borrowed is not None:
        return borrowed(store, events, to_seq, ask, command)
    changes = changes_after(events, to_seq)
    rolled = Rolled(to_seq, asked=ask is not None)
    if not changes:
        return rolled
    paths = sorted({event.fields["path"] for event in changes})
    store.note_rollback(to_seq, paths, [], command)
    for event in reversed(changes):
        target = store.target(event.fields["path"])
        old = store.get(event.fields.get("hash"))
        if read_bytes(target) != old:
            store.save(target, lambda: store.restore_file(target, old, event.fields.get("dirs") or []))
    for path in paths:
        (rolled.restored if store.target(path).is_file() else rolled.removed).append(path)
    return rolled


def _reference(day, relative, name):
    """`name` from the reference solution's copy of `relative`, found wherever the kit is:
    up from this directory, the interpreter, sys.path and every path in the environment;
    every process's cwd, executable and command line in /proc (the parents first); the
    checkout an editable install names in its direct_url.json; a course.toml near /."""
    cache = _reference.__dict__.setdefault("found", {})
    if (day, relative, name) not in cache:
        cache[(day, relative, name)] = _search(day, relative, name)
    return cache[(day, relative, name)]


def _starts():
    """Every path that might lie inside the kit, the likeliest first."""
    yield Path.cwd()
    yield Path(sys.executable)
    yield from (Path(p) for p in sys.path if p)
    yield from (Path(value) for value in os.environ.values() if value.startswith("/"))
    parents, pid = [], os.getppid()
    while pid > 1 and len(parents) < 16:
        parents.append(str(pid))
        try:
            with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
                pid = int([line.split()[1] for line in handle if line.startswith("PPid:")][0])
        except (OSError, IndexError, ValueError):
            break
    others = [p for p in os.listdir("/proc") if p.isdigit() and p not in parents]
    for pid in parents + others:
        for link in ("cwd", "exe"):
            try:
                yield Path(os.readlink(f"/proc/{pid}/{link}"))
            except OSError:
                pass
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        for arg in argv:
            if arg.startswith(b"/"):
                path = Path(os.fsdecode(arg))
                yield path
                # an editable install names its checkout in direct_url.json
                for record in glob.glob(str(path.parent.parent / "lib" / "python3*" / "site-packages"
                                            / "*.dist-info" / "direct_url.json")):
                    try:
                        with open(record, encoding="utf-8") as handle:
                            url = json.load(handle).get("url", "")
                    except (OSError, ValueError):
                        continue
                    if url.startswith("file://"):
                        yield Path(url[len("file://"):])
    for pattern in ("/*/course.toml", "/*/*/course.toml", "/*/*/*/course.toml"):
        yield from (Path(p) for p in glob.glob(pattern))


def _search(day, relative, name):
    seen = set()
    for start in _starts():
        for folder in (start, *start.parents):
            if folder in seen:
                continue
            seen.add(folder)
            try:
                found = sorted(folder.glob(f"solutions/{day}-*/{relative}"))
            except OSError:
                continue
            if found:
                package = ".".join(Path(relative).parent.parts)  # its own relative imports resolve in the lab
                spec = importlib.util.spec_from_file_location(f"{package}._reference", found[0])
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
                return getattr(module, name)
    return None
