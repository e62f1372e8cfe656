"""Day 03's checks, the parts of them no other day has: every check is there in manifest
order, every sentence they say is in the catalogue, the generated inputs hold the edges
the checks claim, and the judge of a truncated result accepts honest notes written in
different ways and refuses the dishonest ones. (The corpus proof, common to every day,
is tests/checks/test_corpus.py.)"""

from __future__ import annotations

import random
import re
import tomllib
import warnings

import pytest

from grader.checkkit.draws import VOICES

from tests.checks import corpus

DAY = corpus.COURSE.find_day("day-03")


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


# --------------------------------------------------------------------------- the inputs

@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("voice", VOICES)
def test_names_are_plain_and_texts_have_no_digits(seed, voice):
    inputs = checks_module("inputs")
    rng = random.Random(seed)
    for _ in range(20):
        name = inputs.file_name(rng)
        assert re.fullmatch(r"[\w.-]+", name) and not re.search(r"\band\b", name), name
        length = rng.randint(1, 5000)
        text = inputs.text_of_length(rng, length, voice)
        assert len(text) == length and not re.search(r"\d", text)
        assert not any(ch in text for ch in "\u2028\u2029\x85\r")
        if voice == "plain":  # nothing in it a person's English output would not have
            assert text.isascii()
    text, first, last = inputs.long_output(rng, rng.randint(200, 20_000), voice=voice)
    assert not re.search(r"\d", text)
    assert text.split("\n")[0] == first and text.rstrip("\n").split("\n")[-1] == last
    assert len(first) <= 40 and len(last) <= 40  # any honest tail of a 200-character limit holds them
    wanted = rng.randint(41, 600)
    text, first, last = inputs.long_output(rng, rng.randint(200, 20_000), wanted, voice)
    assert not re.search(r"\d", text) and text.rstrip("\n").split("\n")[-1] == last
    assert wanted <= len(last) <= wanted + 12  # long enough that a tail of a fixed size loses it, and no longer
    assert text.isascii() == (voice == "plain")


@pytest.mark.parametrize("seed", range(40))
def test_calc_module_puts_divide_last_as_the_mock_reads_it(seed):
    inputs = checks_module("inputs")
    text, define, last = inputs.calc_module(random.Random(seed))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("def divide"))
    body = [line.strip() for line in lines[start + 1:] if line.startswith((" ", "\t")) and line.strip()]
    assert lines[start] == define and body[-1] == last
    module, names = inputs.python_module(random.Random(seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "back\\slash" in a docstring is an invalid escape, and only that
        compile(text, "calc.py", "exec")
        compile(module, "m.py", "exec")
    assert re.findall(r"^(?:def|class) (\w+)", module, re.MULTILINE) == names


# --------------------------------------------------------------------------- the judge of a cut

def _reference(text: str, limit: int) -> str:
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    return text[:head] + marker.format(cut=len(text) - head - tail) + (text[-tail:] if tail else "")


@pytest.mark.parametrize("seed", range(30))
def test_honest_notes_are_accepted_in_several_forms(seed):
    cuts, inputs = checks_module("cuts"), checks_module("inputs")
    rng = random.Random(seed)
    limit = rng.randint(200, 3000)
    text = inputs.text_of_length(rng, limit * rng.randint(2, 20) + rng.randint(1, 99))
    assert cuts.declares(text, _reference(text, limit))
    head, tail = limit // 2, limit // 3
    kept = f"\n(showing {head:,} + {tail:,} of {len(text):,} characters)\n"
    assert cuts.declares(text, text[:head] + kept + text[-tail:])
    assert cuts.declares(text, f"[{len(text) - tail} of {len(text)} characters cut]\n" + text[-tail:])
    note = f"[{len(text) - head - tail} of {len(text)} characters cut from the middle]\n"
    assert cuts.declares(text, note + text[:head] + "\n...\n" + text[-tail:])
    assert cuts.declares(text, text[:head] + "\n...\n" + text[-tail:] + "\n" + note)
    lines = text.splitlines(keepends=True)
    shown = lines[:3] + [f"... {len(lines) - 5} of {len(lines)} lines left out ...\n"] + lines[-2:]
    assert cuts.declares(text, "".join(shown))


@pytest.mark.parametrize("seed", range(30))
def test_silent_or_wrong_notes_are_refused(seed):
    cuts, inputs = checks_module("cuts"), checks_module("inputs")
    rng = random.Random(seed)
    limit = rng.randint(200, 3000)
    text = inputs.text_of_length(rng, limit * rng.randint(2, 20) + rng.randint(1, 99))
    assert not cuts.declares(text, text[:limit])
    assert not cuts.declares(text, text[:limit - 30] + "\n[... truncated ...]")
    assert not cuts.declares(text, text[:limit - 40] + f"\n[truncated, {len(text)} total chars]")
    size = len(text.encode("utf-8"))
    assert not cuts.declares(text, text[:limit - 40] + f"\n[{size - (limit - 40)} of {size} bytes cut]")
    wrong = f"\n[... {len(text) - limit} of {len(text)} characters cut ...]\n"
    room = limit - len(wrong)
    assert not cuts.declares(text, text[:room - room // 2] + wrong + text[-(room // 2):])


def test_kept_of_measures_start_and_end():
    cuts = checks_module("cuts")
    kept = cuts.kept_of("abcdefghij", "abc[7 of 10 cut]j")
    assert (kept.head, kept.tail, kept.numbers) == (3, 1, (7, 10))
    assert cuts.kept_of("abc", "abc").kept == 3


@pytest.mark.parametrize("seed", range(30))
def test_a_part_never_kept_is_not_found_by_chance(seed):
    """The generated texts repeat words; a note put first or last must not make the judge see
    a start or an end the result does not hold (a head-only cut keeps no tail)."""
    cuts, inputs = checks_module("cuts"), checks_module("inputs")
    rng = random.Random(seed)
    limit = rng.randint(200, 8000)
    text = inputs.text_of_length(rng, limit * rng.randint(3, 25))
    head_only = text[:limit - 50] + f"\n[... {len(text) - limit + 50} of {len(text)} characters cut]"
    assert cuts.kept_of(text, head_only).tail <= cuts.SLACK_CHARS
    assert cuts.declares(text, head_only)
    tail_only = f"[{len(text) - limit + 50} of {len(text)} characters cut ...]\n" + text[-(limit - 50):]
    assert cuts.kept_of(text, tail_only).head <= cuts.SLACK_CHARS
    assert cuts.declares(text, tail_only)


def _problem(text, limit, cut):
    """The message key truncation-declared fails a result with (None: it passes)."""
    checks = checks_module()
    failed = checks._cut_problem(lambda key, **values: key, text, limit, cut, True, "what")
    return failed and failed.message


@pytest.mark.parametrize("seed", range(30))
def test_the_note_sits_between_the_ends_and_the_ends_fill_the_room(seed):
    """start, note, end - as the sheet lays it out - in characters or whole lines passes; the
    note first or last, or a result that leaves most of its room empty, does not."""
    inputs = checks_module("inputs")
    rng = random.Random(seed)
    limit = rng.choice((rng.randint(200, 3000), 8000))
    text = inputs.text_of_length(rng, limit * rng.randint(2, 20) + rng.randint(1, 99))
    assert _problem(text, limit, _reference(text, limit)) is None
    lines = text.splitlines(keepends=True)
    head, tail, used = [], [], 0
    while used + len(lines[len(head)]) + len(lines[-1 - len(tail)]) < limit - 60:
        used += len(lines[len(head)]) + len(lines[-1 - len(tail)])
        head.append(lines[len(head)])
        tail.insert(0, lines[-1 - len(tail)])
    note = f"[... {len(lines) - len(head) - len(tail)} of {len(lines)} lines left out ...]\n"
    assert _problem(text, limit, "".join(head) + note + "".join(tail)) is None
    marker = f"[{{cut}} of {len(text)} characters cut]\n"
    room = limit - len(marker.format(cut=len(text)))
    first, last = room - room // 2, room // 2
    glued = text[:first] + text[len(text) - last:]
    cut = marker.format(cut=len(text) - first - last)
    assert _problem(text, limit, cut + glued) == "cut.note_misplaced"
    glued = text[:first - 1] + text[len(text) - last:]  # one character for the line break before the note
    cut = marker.format(cut=len(text) - first + 1 - last)
    assert _problem(text, limit, glued + "\n" + cut.rstrip("\n")) == "cut.note_misplaced"
    assert _problem(text, limit, glued + "\n" + cut) == "cut.note_misplaced"
    small = text[:50] + f"\n[... {len(text) - 100} of {len(text)} characters cut ...]\n" + text[-50:]
    assert _problem(text, limit, small) == ("cut.room_unused" if limit >= 1000 else _problem(text, limit, small))


def test_every_limit_drawn_leaves_room_for_a_note_and_both_ends():
    """Limits start at 200 characters in every draw (a limit below the note's own length, about
    40, has no honest cut: the sheet says the checks never ask for one), and each draw holds a
    text at, just over and far over its limit."""
    checks = checks_module()
    for seed in range(200):
        pairs = checks._limits_and_lengths(random.Random(seed))
        assert min(limit for limit, _ in pairs) >= 200
        for limit in {limit for limit, _ in pairs}:
            lengths = {length - limit for l, length in pairs if l == limit}
            assert 0 in lengths and 1 in lengths and max(lengths) > limit, (seed, limit, lengths)
