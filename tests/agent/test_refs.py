"""Day 8's @-references, in process: which @ are references, what each kind becomes,
the documented token estimate and the bill's figures."""

from __future__ import annotations

import base64

from .days import module_since

module_since(8, "@-references")

from mca.refs import expand  # noqa: E402
from mca.refs.bill import bill, estimate_tokens  # noqa: E402
from mca.refs.inject import MAX_INJECT_CHARS, inject  # noqa: E402
from mca.refs.parse import find_refs  # noqa: E402


def test_only_an_at_that_starts_a_word_is_a_reference():
    text = ("mail ada@example.com about @calc.py, (see @notes.md) and @src/. then [@a.json]! "
            "@@home `@quoted.py` @calc.py again\n```\n@fenced.py\n```")
    assert find_refs(text) == ["calc.py", "notes.md", "src/", "a.json"]


def test_an_email_does_not_swallow_the_reference_a_bracket_starts_after_it():
    assert find_refs("mail ada@home(@calc.py) now") == ["calc.py"]
    assert find_refs("x@a.org[@b.md] and @@c{@d.txt}") == ["b.md", "d.txt"]


def test_each_kind_becomes_its_own_form(tmp_path):
    (tmp_path / "a.txt").write_bytes("line\r\n数据\n".encode())
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.py").write_text("x = 1\n")
    (tmp_path / "d" / "sub").mkdir()
    png = b"\x89PNG\r\n\x1a\n\xff\x00"
    (tmp_path / "p.png").write_bytes(png)
    assert inject("a.txt", tmp_path).text == "line\r\n数据\n"
    assert inject("d/", tmp_path).text == "sub/\nx.py  6 bytes\n"
    image = inject("p.png", tmp_path)
    assert image.kind == "image" and image.image_url == "data:image/png;base64," + base64.b64encode(png).decode()
    assert inject("../a.txt", tmp_path).note and inject("nope.txt", tmp_path).note


def test_a_long_file_is_cut_and_says_so(tmp_path):
    (tmp_path / "big.log").write_text("x" * (MAX_INJECT_CHARS * 3))
    cut = inject("big.log", tmp_path)
    assert cut.truncated and cut.chars <= MAX_INJECT_CHARS and str(MAX_INJECT_CHARS * 3) in cut.text


def test_the_estimate_and_the_bill(tmp_path):
    assert [estimate_tokens(t) for t in ("", "abcd", "abcde", "hello 世界", "🇯🇵")] == [0, 1, 2, 4, 2]
    (tmp_path / "a.txt").write_text("hello 世界")
    (tmp_path / "b.txt").write_text("abcde")
    expanded = expand("see @a.txt and @b.txt and @gone.txt", tmp_path)
    accounted = bill(expanded.injections)
    assert accounted.lines == ["injected: a.txt 8 chars ≈ 4 tokens", "injected: b.txt 5 chars ≈ 2 tokens",
                               "injected: total 2 refs, 13 chars ≈ 6 tokens"]
    assert accounted.event["chars"] == 13 and accounted.event["tokens"] == 6
    assert expanded.content.startswith("see @a.txt and @b.txt and @gone.txt\n\n[@a.txt: file, 8 chars]\n")


def test_an_image_makes_the_content_a_list_of_parts(tmp_path):
    (tmp_path / "p.gif").write_bytes(b"GIF89a\x01")
    content = expand("look @p.gif", tmp_path).content
    assert content[0]["type"] == "text" and content[0]["text"].startswith("look @p.gif")
    assert content[1] == {"type": "image_url", "image_url": {"url": "data:image/gif;base64,R0lGODlhAQ=="}}


def test_log_describes_the_injected_event_by_what_it_billed(tmp_path):
    from mca.commands import describe_event
    from mca.session.log import Event

    (tmp_path / "a.txt").write_text("hello 世界")
    accounted = bill(expand("see @a.txt", tmp_path).injections)
    line = describe_event(Event(2, "t", "injected", accounted.event))
    assert line == "a.txt: 8 chars ≈ 4 tokens (sent in the next message)"
