"""Day 01's checks, the parts of them no other day has: every check is there in manifest
order, every sentence they say is in the catalogue, and the helpers that read the
REPL and compare histories. (The corpus proof, common to every day, is
tests/checks/test_corpus.py.)"""

from __future__ import annotations

import random
import re
import tomllib

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-01")


def checks_module(name: str = "checks"):
    """A module of the day's checks folder, imported as the engine does (a package)."""
    return corpus.checks_module(DAY, name)


def test_every_message_the_checks_use_is_in_the_catalogue():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
        used |= set(re.findall(r'"((?:what|brief|idea)\.[a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    catalogue = tomllib.loads((DAY.checks_dir / "messages.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((corpus.KIT / "grader" / "checkkit" / "messages.toml").read_text(encoding="utf-8"))
    known = {f"{section}.{name}" for table in (catalogue, kit) for section, entries in table.items()
             for name in entries}
    assert len(used) > 40 and used <= known, sorted(used - known)
    ours = {f"{section}.{name}" for section, entries in catalogue.items() for name in entries}
    assert ours <= used, f"sentences no check says: {sorted(ours - used)}"


def test_answers_splits_at_each_prompt():
    prompts = checks_module("prompts")
    stdout = "mca: type a request, /exit to leave\nyou > Nice to meet you, 李娜.\nyou > \nyou > "
    assert prompts.answers(stdout) == ["Nice to meet you, 李娜.", "", ""]


def test_first_difference_names_count_role_then_content():
    roles = checks_module("roles")
    say = lambda key, **values: f"{key} {sorted(values.items())}"  # noqa: E731
    user, bot = {"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}
    assert roles.first_difference(say, [user, bot], [user, bot]) is None
    assert roles.first_difference(say, [user], [user, bot]).startswith("diff.count")
    assert roles.first_difference(say, [bot, user], [user, bot]).startswith("diff.role")
    assert roles.first_difference(say, [user, dict(bot, content="c")], [user, bot]).startswith("diff.content")


def test_names_and_lines_fit_the_mock_and_the_prompt():
    inputs = checks_module("inputs")
    rng = random.Random(7)
    for _ in range(200):
        name = inputs.random_name(rng)
        assert re.fullmatch(r"[^\s.,!?]+", name), name  # what the mock's NAME pattern takes back
        line = inputs.typed_line(rng)
        assert "\n" not in line and line == line.strip() and not line.startswith("/")
        assert "name" not in line.lower()
