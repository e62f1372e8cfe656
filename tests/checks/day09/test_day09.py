"""Day 09's checks, the parts of them no other day has: the catalogue and the generated
trees. (The corpus proof, common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import random
import re
import tomllib

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-09")


def test_every_message_the_checks_use_is_in_both_catalogues():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', text))
        used |= set(re.findall(r'"(what\.[a-z_]+)"', text))
        used |= {f"order.{w}" for w in ("elsewhere", "nowhere")} | {f"changed.{h}" for h in ("edited", "removed", "added")}
    for name in ("messages.toml", "messages.zh.toml"):
        catalogue = tomllib.loads((DAY.checks_dir / name).read_text(encoding="utf-8"))
        known = {f"{section}.{key}" for section, entries in catalogue.items() for key in entries}
        assert len(used) > 30 and used <= known, (name, sorted(used - known))


def test_a_text_of_a_size_has_that_many_characters(tmp_path):
    trees = corpus.checks_module(DAY, "trees")
    rng = random.Random(9)
    for voice in trees.VOICE_NAMES:
        for size in (50, 999, trees.CAP + 17):
            text = trees.rules_of_size(rng, voice, size)
            assert len(text) == size and not text[-1].isspace()


def test_a_tree_knows_which_files_apply(tmp_path):
    trees = corpus.checks_module(DAY, "trees")
    rng = random.Random(3)
    tree = trees.make_tree(tmp_path / "t", rng, 4, 1)
    paths = [tree.put(d, trees.rules(rng, "plain")) for d in tree.chain]
    assert tree.applying() == paths[1:] and tree.not_applying() == paths[:1]
    assert (tree.root / ".git").is_dir() and any(not d.name.isascii() for d in tree.chain)
    loose = trees.make_tree(tmp_path / "u", rng, 3, None)
    files = [loose.put(d, trees.rules(rng, "mixed")) for d in loose.chain]
    assert loose.applying() == files[-1:]
