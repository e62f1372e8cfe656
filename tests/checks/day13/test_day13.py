"""Day 13's checks, the parts of them no other day has: the catalogue. (The corpus proof,
common to every day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import re
import tomllib

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-13")


def test_every_message_the_checks_use_is_in_both_catalogues():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    for name in ("messages.toml", "messages.zh.toml"):
        catalogue = tomllib.loads((DAY.checks_dir / name).read_text(encoding="utf-8"))
        known = {f"{section}.{key}" for section, entries in catalogue.items() for key in entries}
        assert len(used) > 20 and used <= known, (name, sorted(used - known))
