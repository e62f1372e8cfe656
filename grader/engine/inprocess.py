"""pytest run in the grader's own process, hermetically: an ini file of its own in the run
root, no caller's PYTEST_* settings, no cache provider, terminal output captured, and the
checks modules it imported forgotten afterwards."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

import pytest

from grader.engine.plugin import GraderPlugin

_PYTEST_ENV = {"PYTEST_ADDOPTS": None, "PYTEST_PLUGINS": None, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


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


def run_pytest(module: Path, run_root: Path, plugin: GraderPlugin) -> tuple[int, str]:
    ini = run_root / "pytest.ini"
    ini.write_text("[pytest]\n", encoding="utf-8")
    args = [str(module), "-p", "no:cacheprovider", "-p", "no:terminal", "-p", "no:stepwise",
            "--import-mode=importlib", "-c", str(ini), "--rootdir", str(run_root),
            "--confcutdir", str(module.parent), "--basetemp", str(run_root / "pytest"),
            "-o", "addopts=", "-o", "python_functions=test_*"]
    sink = io.StringIO()
    try:
        with _hermetic(run_root), contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exit_code = pytest.main(args, plugins=[plugin])
    finally:
        _forget_modules(run_root)
    return exit_code, sink.getvalue()


def _forget_modules(run_root: Path) -> None:
    """Drop the checks modules this run imported: every day's folder is copied as `fixtures`
    with a `checks.py`, and the next run in this process (verify, the kit's tests) must
    import its own, not this one (pytest may also have made an empty `fixtures` package)."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if name == "fixtures" or name.startswith("fixtures.") or (
                file and Path(file).resolve().is_relative_to(run_root)):
            del sys.modules[name]
