"""trees.replace_contents: the directory stays; a failed or interrupted swap puts the old entries back."""

from __future__ import annotations

import os

import pytest

from grader.scaffold import trees


def _fill(files):
    def fill(staging):
        trees.write_tree(files, staging)
    return fill


def test_contents_are_replaced_and_the_directory_stays(tmp_path):
    lab = tmp_path / "lab"
    trees.write_tree({"a.py": b"old\n", "pkg/b.py": b"old\n", ".hidden": b"x"}, lab)
    inode = lab.stat().st_ino
    trees.replace_contents(lab, _fill({"a.py": b"new\n", "pkg/c.py": b"new\n"}))
    assert lab.stat().st_ino == inode
    assert trees.read_tree(lab) == {"a.py": b"new\n", "pkg/c.py": b"new\n"}
    assert not (lab / ".hidden").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab"]


@pytest.mark.parametrize("error", [OSError("disk gone"), KeyboardInterrupt()])
def test_a_failed_move_puts_the_old_contents_back(tmp_path, monkeypatch, error):
    lab = tmp_path / "lab"
    old = {"a.py": b"old\n", "pkg/b.py": b"old\n", "z.txt": b"z\n"}
    trees.write_tree(old, lab)
    real, calls = os.rename, []

    def flaky(src, dst):
        calls.append((src, dst))
        if len(calls) == 5:           # after moving the old entries out and one new one in
            raise error
        return real(src, dst)

    monkeypatch.setattr(os, "rename", flaky)
    with pytest.raises(type(error)):
        trees.replace_contents(lab, _fill({"a.py": b"new\n", "n1.py": b"1", "n2.py": b"2"}))
    monkeypatch.setattr(os, "rename", real)
    assert trees.read_tree(lab) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab"]


def test_a_missing_directory_is_created(tmp_path):
    trees.replace_contents(tmp_path / "new", _fill({"a": b"1"}))
    assert (tmp_path / "new/a").read_bytes() == b"1"


def test_untouched_means_exactly_the_tree(tmp_path):
    tree = {"a.py": b"1", "pkg/b.py": b"2"}
    trees.write_tree(tree, tmp_path / "lab")
    lab = tmp_path / "lab"
    (lab / "pkg/__pycache__").mkdir()
    (lab / "pkg/__pycache__/b.cpython-311.pyc").write_bytes(b"junk")
    assert trees.is_untouched(lab, tree)
    for make in (lambda: (lab / ".sessions").mkdir(), lambda: (lab / "pkg/b.py").write_bytes(b"3"),
                 lambda: (lab / "empty").mkdir(), lambda: (lab / "a.py").unlink()):
        trees.write_tree(tree, tmp_path / "fresh")
        make()
        assert not trees.is_untouched(lab, tree)
        import shutil
        shutil.rmtree(lab)
        (tmp_path / "fresh").rename(lab)
