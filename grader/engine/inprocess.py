"""pytest run in the grader's own process, hermetically: an ini file of its own in the run
root, no caller's PYTEST_* settings, no cache provider, terminal output captured, and the
checks modules it imported forgotten afterwards.

A process that grades run after run (the watch's grading process, the kit's grading
servers) compiles each checks module once: every run copies the day's checks folder into
a fresh run root, so neither Python's nor pytest's bytecode cache ever hits, and parsing,
rewriting the asserts and compiling the same source again cost more CPU than the rest of
pytest's session. The code is kept by its exact source and given each run's file name."""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import io
import os
import sys
import threading
import types
from pathlib import Path

import pytest

from grader.engine.plugin import GraderPlugin

_PYTEST_ENV = {"PYTEST_ADDOPTS": None, "PYTEST_PLUGINS": None, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
# pytest's plugins that a grading never uses (the checks take only the grader's fixtures and
# their own, and pytest's output goes nowhere), left out of every run: each costs its
# registration, and unraisableexception a full gc.collect() at the session's end, which in a
# process that grades run after run (the watch, the suite's grading servers) walks every
# object the earlier runs left.
UNUSED_PLUGINS = ("cacheprovider", "terminal", "stepwise", "unraisableexception", "threadexception",
                  "pastebin", "junitxml", "doctest", "setuponly", "setupplan", "legacypath", "debugging",
                  "faulthandler", "unittest", "subtests")


@contextlib.contextmanager
def _hermetic(run_root: Path):
    """No caller's pytest settings, and the grader's cwd in the run root, for the duration."""
    saved = {key: os.environ.get(key) for key in _PYTEST_ENV}
    cwd = os.getcwd()
    try:
        for key, value in _PYTEST_ENV.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        os.chdir(run_root)
        yield
    finally:
        os.chdir(cwd)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


_COMPILED: dict[tuple, types.CodeType] = {}   # (how, file name, source) -> code, for this process
_COMPILED_MAX = 256
_compiled_lock = threading.Lock()


def _retarget(code: types.CodeType, filename: str) -> types.CodeType:
    """`code` as if compiled from `filename` (nested functions and classes too)."""
    consts = tuple(_retarget(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _remembered(key: tuple, filename: str, make) -> types.CodeType:
    with _compiled_lock:
        code = _COMPILED.get(key)
    if code is None:
        code = make()
        with _compiled_lock:
            if len(_COMPILED) >= _COMPILED_MAX:
                _COMPILED.clear()
            _COMPILED[key] = code
    return code if code.co_filename == filename else _retarget(code, filename)


@contextlib.contextmanager
def _compile_once(folder: Path):
    """For the run: the modules of the checks folder's copy (`folder`) compile from the
    code kept for their source, if this process compiled the same source before."""
    prefixes = tuple({str(folder) + os.sep, str(Path(folder).resolve()) + os.sep})
    loader = importlib.machinery.SourceFileLoader
    own = "source_to_code" in vars(loader)   # else inherited from SourceLoader
    plain = loader.source_to_code
    rewrite = getattr(sys.modules.get("_pytest.assertion.rewrite"), "_rewrite_test", None)

    def source_to_code(self, data, path, *args, **kwargs):
        if args or kwargs or not isinstance(path, str) or not path.startswith(prefixes):
            return plain(self, data, path, *args, **kwargs)
        return _remembered(("plain", os.path.basename(path), bytes(data)), path,
                           lambda: plain(self, data, path))

    def rewrite_test(fn, config):
        strfn = str(fn)
        if not strfn.startswith(prefixes):
            return rewrite(fn, config)
        source = Path(fn).read_bytes()
        made = []

        def make():
            made.append(rewrite(fn, config))
            return made[0][1]
        code = _remembered(("rewritten", os.path.basename(strfn), source), strfn, make)
        return (made[0][0] if made else importlib.util.source_hash(source)), code

    loader.source_to_code = source_to_code
    module = sys.modules.get("_pytest.assertion.rewrite")
    if rewrite is not None:
        module._rewrite_test = rewrite_test
    try:
        yield
    finally:
        if own:
            loader.source_to_code = plain
        else:
            del loader.source_to_code
        if rewrite is not None:
            module._rewrite_test = rewrite


def run_pytest(module: Path, run_root: Path, plugin: GraderPlugin) -> tuple[int, str]:
    ini = run_root / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    args = [str(module), *(arg for name in UNUSED_PLUGINS for arg in ("-p", f"no:{name}")),
            "--import-mode=importlib", "-c", str(ini), "--rootdir", str(run_root),
            "--confcutdir", str(module.parent), "--basetemp", str(run_root / "pytest"),
            "-o", "addopts=", "-o", "python_functions=test_*"]
    sink = io.StringIO()
    try:
        with _hermetic(run_root), _compile_once(module.parent), contextlib.redirect_stdout(sink), \
                contextlib.redirect_stderr(sink):
            exit_code = pytest.main(args, plugins=[plugin])
    finally:
        _forget_modules(run_root)
    return exit_code, sink.getvalue()


def _forget_modules(run_root: Path) -> None:
    """Drop the checks modules this run imported: every day's folder is copied as `fixtures`
    with a `checks.py`, and the next run in this process (verify, the kit's tests) must
    import its own, not this one (pytest may also have made an empty `fixtures` package).
    A module's file is resolved only when its path could lead into the run root (one under the
    run root's own spelling, or any relative one): resolving every module's file cost more
    than the rest of a one-check run's session end."""
    spellings = tuple({str(run_root) + os.sep, str(Path(run_root).resolve()) + os.sep})
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if name == "fixtures" or name.startswith("fixtures.") or (
                isinstance(file, str) and (file.startswith(spellings) or not os.path.isabs(file))
                and Path(file).resolve().is_relative_to(Path(run_root).resolve())):
            del sys.modules[name]
