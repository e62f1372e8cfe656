"""Day 08's checks, the parts of them no other day has: the catalogue, the documented
token estimate, and the page server's hanging page. (The corpus proof, common to every
day, is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import re
import tomllib
import urllib.request

import pytest

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-08")


def test_every_message_the_checks_use_is_in_both_catalogues():
    used = set()
    for path in DAY.checks_dir.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\("([a-z0-9_]+\.[a-z0-9_]+)"', text))
        used |= {f"escape.{label}" for label in ("dotdot", "absolute", "link")}  # say(f"escape.{label}")
    for name in ("messages.toml", "messages.zh.toml"):
        catalogue = tomllib.loads((DAY.checks_dir / name).read_text(encoding="utf-8"))
        known = {f"{section}.{key}" for section, entries in catalogue.items() for key in entries}
        assert len(used) > 30 and used <= known, (name, sorted(used - known))


@pytest.mark.parametrize(("text", "tokens"), [
    ("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("hello 世界", 4), ("世界", 2), ("🇯🇵", 2), ("é" * 8, 2),
    ("\u07ff" * 4, 1), ("\u0800", 1),
])
def test_the_estimate_is_the_documented_rule(text, tokens):
    wire = corpus.checks_module(DAY, "wire")
    assert wire.estimate(text) == tokens


def test_a_hanging_page_is_let_go_when_the_server_closes():
    wire = corpus.checks_module(DAY, "wire")
    pages = wire.PageServer()
    with pages:
        url = pages.page("/p", "<p>hi</p>")
        assert urllib.request.urlopen(url, timeout=5).read() == b"<p>hi</p>"
        slow = pages.hang("/slow", 60)
        with pytest.raises(OSError):
            urllib.request.urlopen(slow, timeout=0.5)
        assert pages.gets("/p") == ["GET"]
    assert pages.released.is_set()
