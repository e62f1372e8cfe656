"""grader/spawn/hermetic.py: the bwrap view of a lab child, the probe, and the one line
`grader check` says when the view is not used."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from grader import cli
from grader.commands import check as check_command
from grader.spawn import base_python, hermetic


@pytest.fixture(autouse=True)
def fresh_probe():
    hermetic.forget()
    yield
    hermetic.forget()


def test_the_view_shares_the_network_and_binds_writable_dirs_at_their_own_paths(tmp_path):
    argv = hermetic.command(base_python(), (tmp_path,), chdir=str(tmp_path), home="/home/someone",
                            bwrap="/usr/bin/bwrap", env="/usr/bin/env")
    assert argv[:2] == ["/usr/bin/env", "--ignore-signal=INT"] and argv[-3:] == ["--", "/usr/bin/env",
                                                                                    "--default-signal=INT"]
    assert "--unshare-pid" in argv and "--die-with-parent" in argv
    assert not [a for a in argv if a.startswith("--unshare-net") or a == "--unshare-all"]
    assert ["--bind", str(tmp_path), str(tmp_path)] == argv[argv.index("--bind"):argv.index("--bind") + 3]
    assert ["--proc", "/proc"] == argv[argv.index("--proc"):argv.index("--proc") + 2]
    assert ["--tmpfs", "/home/someone"] == argv[argv.index("/home/someone") - 1:argv.index("/home/someone") + 1]
    kit = os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__)))
    assert not [a for a in argv if a.startswith(kit)], "the kit is never part of the view"


def test_without_bwrap_the_probe_says_so_and_names_the_package(monkeypatch):
    monkeypatch.setattr(hermetic.shutil, "which", lambda name, path=None: None)
    found = hermetic.find(base_python())
    assert found.bwrap is None and "bubblewrap" in found.why


def test_the_probe_runs_once_per_process(monkeypatch):
    calls = []
    monkeypatch.setattr(hermetic, "_probe", lambda python: calls.append(python) or hermetic.Found(None, "x"))
    hermetic.find("a"), hermetic.find("b")
    assert calls == ["a"]


def test_a_bwrap_that_cannot_make_a_view_is_reported_with_its_error(monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(hermetic.shutil, "which",
                        lambda name, path=None: str(fake) if name == "bwrap" else "/usr/bin/env")
    found = hermetic.find(base_python())
    assert found.bwrap is None and "No permissions to creating new namespace" in found.why


def test_check_says_in_one_line_when_the_children_are_not_hermetic(monkeypatch, capsys):
    monkeypatch.setattr(hermetic, "find", lambda python=None: hermetic.Found(None, "because"))
    monkeypatch.delenv("GRADER_HERMETIC", raising=False)
    check_command._say_if_not_hermetic()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "because" in err and "docs/reliability.md" in err
    monkeypatch.setattr(hermetic, "find", lambda python=None: hermetic.Found("/usr/bin/bwrap"))
    check_command._say_if_not_hermetic()
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux's")
def test_a_child_in_the_view_sees_its_dir_and_not_the_kit(tmp_path):
    found = hermetic.find(base_python())
    if not found.bwrap:
        pytest.skip(f"no hermetic mode here: {found.why}")
    kit = os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__)))
    argv = hermetic.command(base_python(), (tmp_path,), chdir=str(tmp_path), home=os.environ.get("HOME"),
                            bwrap=found.bwrap, env=found.env)
    code = "import os, sys; print(os.getcwd()); print(os.path.exists(sys.argv[1])); print(os.getppid())"
    done = subprocess.run([*argv, base_python(), "-I", "-S", "-c", code, kit], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path), "False", "1"]
