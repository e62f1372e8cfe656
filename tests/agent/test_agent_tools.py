"""File tools: confinement to the workdir, honest truncation, argument checks (day 3);
exact edits and atomic writes (day 4)."""

from __future__ import annotations

import os
import re
import stat

import pytest

from .days import module_since, since

module_since(3, "tools")

from mca.tools.paths import OutsideWorkdir, resolve_inside  # noqa: E402
from mca.tools.registry import default_tools  # noqa: E402
from mca.tools.truncate import truncate  # noqa: E402

MARKER = re.compile(r"\n\[\.\.\. (\d+) of (\d+) characters cut \.\.\.\]\n")


@pytest.fixture
def tools(workspace):
    return default_tools(workspace)


@pytest.mark.parametrize("path", ["../secret.txt", "sub/../../x", "/etc/passwd"])
def test_paths_outside_the_workdir_are_refused(workspace, path):
    with pytest.raises(OutsideWorkdir, match="outside the workdir"):
        resolve_inside(workspace, path)


def test_paths_inside_resolve_to_the_file(workspace):
    assert resolve_inside(workspace, "sub/../calc.py") == (workspace / "calc.py").resolve()
    assert resolve_inside(workspace, ".") == workspace.resolve()


def test_a_symlink_pointing_out_is_refused(workspace, tmp_path):
    (tmp_path / "outside.txt").write_text("secret")
    (workspace / "link.txt").symlink_to(tmp_path / "outside.txt")
    result = default_tools(workspace).run("read_file", {"path": "link.txt"})
    assert not result.ok and "outside the workdir" in result.content and "secret" not in result.content


def test_read_list_and_grep(tools):
    assert "def divide" in tools.run("read_file", {"path": "calc.py"}).content
    listing = tools.run("list_dir", {}).content.splitlines()
    assert "calc.py" in listing and "test_calc.py" in listing
    found = tools.run("grep", {"pattern": r"def \w+\(a, b\)"}).content.splitlines()
    assert len(found) == 4 and all(line.startswith("calc.py:") for line in found)
    assert found[0] == "calc.py:4: def add(a, b):"


def test_the_read_tools_are_marked_read_only(tools):
    assert {name for name in tools.names() if tools.is_read_only(name)} == {"read_file", "list_dir", "grep"}


def test_reading_outside_is_an_error_result_not_an_exception(tools):
    result = tools.run("read_file", {"path": "../../etc/passwd"})
    assert not result.ok and result.content.startswith("error:")


def test_missing_or_mistyped_args_are_reported(tools):
    assert tools.run("read_file", {}).content == "error: bad arguments for read_file: missing 'path'"
    assert "'path' must be a string" in tools.run("read_file", {"path": 3}).content
    assert "unknown argument 'mode'" in tools.run("read_file", {"path": "calc.py", "mode": "r"}).content
    assert "no tool named 'rm'" in tools.run("rm", {}).content


def test_long_results_keep_head_and_tail_and_say_how_much_was_cut_of_how_much():
    text = "A" * 6000 + "B" * 6000
    cut, truncated = truncate(text, 1000)
    assert truncated and len(cut) <= 1000
    head, marker, tail = MARKER.split(cut, maxsplit=1)[0], MARKER.search(cut), MARKER.split(cut)[-1]
    removed, total = map(int, marker.groups())
    assert total == 12000 and len(head) + len(tail) + removed == total
    assert set(head) == {"A"} and set(tail) == {"B"} and len(head) > 400 and len(tail) > 400
    assert truncate("short", 1000) == ("short", False)


def test_the_last_line_of_a_long_output_survives_the_cut():
    text = "".join(f"line {n}\n" for n in range(20000)) + "ValueError: the real problem"
    cut, _ = truncate(text, 2000)
    assert cut.endswith("ValueError: the real problem") and cut.startswith("line 0\n")


def test_registry_flags_truncated_results(workspace):
    (workspace / "big.txt").write_text("x" * 20000)
    result = default_tools(workspace).run("read_file", {"path": "big.txt"})
    assert result.ok and result.truncated and MARKER.search(result.content)


# --- day 4: tools that write ---------------------------------------------------------------

@since(4, "write tools")
def test_edit_replaces_text_that_appears_exactly_once(tools, workspace):
    result = tools.run("edit_file", {"path": "calc.py", "old": "    return a * b", "new": "    return b * a"})
    assert result.content == "edited calc.py: replaced 1 occurrence"
    assert "return b * a" in (workspace / "calc.py").read_text()


@since(4, "write tools")
@pytest.mark.parametrize("old, problem", [("not in the file", "was not found"), ("    return a", "appears 4 times"),
                                          ("", "was not found")])
def test_edit_refuses_zero_or_many_matches_and_leaves_the_file(tools, workspace, old, problem):
    before = (workspace / "calc.py").read_bytes()
    result = tools.run("edit_file", {"path": "calc.py", "old": old, "new": "x"})
    assert not result.ok and problem in result.content
    assert (workspace / "calc.py").read_bytes() == before


@since(4, "write tools")
def test_an_edit_keeps_windows_line_endings(tools, workspace):
    (workspace / "crlf.py").write_bytes(b"a = 1\r\nb = 2\r\nc = 3\r\n")
    assert tools.run("edit_file", {"path": "crlf.py", "old": "a = 1\nb = 2", "new": "a = 10\nb = 20"}).ok
    assert (workspace / "crlf.py").read_bytes() == b"a = 10\r\nb = 20\r\nc = 3\r\n"


@since(4, "write tools")
def test_write_file_creates_parent_directories(tools, workspace):
    result = tools.run("write_file", {"path": "notes/a.txt", "content": "hi"})
    assert result.content == "wrote 2 characters to notes/a.txt"
    assert (workspace / "notes" / "a.txt").read_text() == "hi"


@since(4, "write tools")
@pytest.mark.parametrize("how", ["relative", "absolute", "symlinked dir"])
def test_writing_outside_the_workdir_is_refused_and_writes_nothing(tools, workspace, how):
    outside = workspace.parent / "outside"
    outside.mkdir()
    (workspace / "out").symlink_to(outside, target_is_directory=True)
    path = {"relative": "../outside/x.txt", "absolute": str(outside / "x.txt"), "symlinked dir": "out/x.txt"}[how]
    result = tools.run("write_file", {"path": path, "content": "no"})
    assert not result.ok and "outside the workdir" in result.content and list(outside.iterdir()) == []


@since(4, "write tools")
def test_a_write_replaces_the_file_by_rename_and_keeps_its_mode(tools, workspace):
    target = workspace / "calc.py"
    target.chmod(0o640)
    before = target.stat().st_ino
    assert tools.run("write_file", {"path": "calc.py", "content": "new\n"}).ok
    assert target.read_text() == "new\n"
    assert target.stat().st_ino != before  # a new file renamed over the old one, not rewritten in place
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(os.listdir(workspace)) == ["calc.py", "test_calc.py"]  # no temp file left


@since(4, "write tools")
@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temp_file(workspace, monkeypatch, failing):
    from mca.tools import files

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")
    target = workspace / "calc.py"
    before = target.read_bytes()
    with monkeypatch.context() as patched, pytest.raises(OSError, match="No space left"):
        patched.setattr(files.os, failing, fail)
        files.write_file(workspace, {"path": "calc.py", "content": "half"})
    assert target.read_bytes() == before
    assert sorted(os.listdir(workspace)) == ["calc.py", "test_calc.py"]


@since(4, "write tools")
def test_an_interrupted_write_leaves_no_temp_file_either(workspace, monkeypatch):
    from mca.tools import files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    with monkeypatch.context() as patched, pytest.raises(KeyboardInterrupt):
        patched.setattr(files.os, "fsync", interrupted)
        files.write_file(workspace, {"path": "new.txt", "content": "x"})
    assert sorted(os.listdir(workspace)) == ["calc.py", "test_calc.py"]


# --- day 6: failures nobody planned for are results too ---------------------------------------

@since(6, "error feedback")
def test_a_missing_file_is_an_error_result_naming_the_failure(tools):
    result = tools.run("read_file", {"path": "config.py"})
    assert not result.ok and result.content.startswith("error: read_file failed: FileNotFoundError:")
