"""Day 04's generated inputs: file names, file texts to edit, command outputs, contents
to write, time limits. Everything comes from the check's `ctx.rng(...)`, so a seed
replays it and nothing can be memorised."""

from __future__ import annotations

import random
import re
import string

from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI, mixed_text

LETTERS = string.ascii_lowercase


def word(rng: random.Random, size: tuple[int, int] = (4, 8)) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(*size)))


def file_name(rng: random.Random, suffix: str = ".txt") -> str:
    """A file name with no digits (a count in a message must not be read from the name),
    half of the time with a CJK part."""
    stem = word(rng)
    if rng.random() < 0.5:
        stem += "_" + rng.choice(CJK_WORDS)
    return stem + suffix


def code_line(rng: random.Random) -> str:
    """A line of Python-looking code, with a CJK or emoji string in it."""
    name, other = word(rng), word(rng)
    text = rng.choice(CJK_WORDS) + rng.choice(EMOJI)
    return rng.choice([
        f"    {name} = {other}({rng.randint(0, 999)}, \"{text}\")",
        f"    if {name} > {rng.randint(1, 99)}:",
        f"        return \"{text} {other}\"",
        f"    {name}.append(\"{text}\")",
        f"def {name}_{other}(a, b):",
        f"# {mixed_text(rng, (3, 6))}".replace("\n", " "),
    ])


def distinct_lines(rng: random.Random, count: int) -> list[str]:
    lines: list[str] = []
    while len(lines) < count:
        line = code_line(rng)
        if line not in lines:
            lines.append(line)
    return lines


def unique_in(text: str, piece: str) -> bool:
    return text.count(piece) == 1


def stream_lines(rng: random.Random, label: str, count: int) -> list[str]:
    """Lines a command prints: numbered, each with CJK, the label naming the stream."""
    return [f"{label} {n:05d} {rng.choice(ASCII_WORDS)} {rng.choice(CJK_WORDS)} {word(rng)}" for n in range(count)]


def big_unit(rng: random.Random) -> str:
    """One repeated unit of a large file: ASCII, CJK, emoji, and a newline."""
    return f"{word(rng, (5, 12))} {mixed_text(rng, (4, 8))} {rng.getrandbits(32):08x}\n"


def ambiguous_file(rng: random.Random) -> tuple[str, str, int, str, int, str]:
    """A file text in which a whole line appears 2 or 3 times and a piece inside lines the
    other count, plus two adjacent lines that appear once together:
    (text, line, line_count, piece, piece_count, unique).

    Every draw holds: the whole line on 2 or 3 different lines; the piece twice on ONE
    line (so an edit that counts matching lines, not matches, counts too few: 1 of 2, or
    2 of 3), and for a count of 3 once more on another line; two adjacent lines that
    appear once together."""
    while True:
        lines = distinct_lines(rng, rng.randint(10, 16))
        line_count, piece_count = rng.sample([2, 3], 2)
        repeated = code_line(rng)
        piece = f"{word(rng)}_{rng.choice(CJK_WORDS)}"
        body = list(lines)
        for at in sorted(rng.sample(range(len(body) + 1), line_count), reverse=True):
            body.insert(at, repeated)
        hosts = rng.sample([i for i, line in enumerate(body) if line != repeated], piece_count - 1)
        for n, i in enumerate(hosts):
            pieces = rng.choice([f"{piece}, {piece}", f"{piece} -> {piece}", f"{piece}/{piece}"]) if n == 0 else piece
            body[i] = body[i] + f"  # {pieces}"
        text = "\n".join(body) + "\n"
        start = rng.randrange(len(body) - 1)
        unique = body[start] + "\n" + body[start + 1]
        if (text.count(repeated) == line_count and text.count(piece) == piece_count
                and text.count(unique) == 1 and repeated not in unique and piece not in unique):
            return text, repeated, line_count, piece, piece_count, unique


def missing_cases(rng: random.Random) -> tuple[str, list[str], list[tuple[str, str]], str]:
    """A file text and old texts that are not in it: a near miss (one character differs),
    the right text with other whitespace, text from elsewhere, the right text with one
    letter in another case (unique if case is ignored), and with one letter replaced by
    `.` (unique as a regular expression); (text, lines, misses, target)."""
    while True:
        lines = distinct_lines(rng, rng.randint(10, 16))
        text = "\n".join(lines) + "\n"
        target = rng.choice([line for line in lines if len(line) > 8])
        spot = rng.randrange(2, len(target))
        swapped = target[:spot] + ("X" if target[spot] != "X" else "Y") + target[spot + 1:]
        indented = [line for line in lines if line.startswith("    ")]
        spaced = indented[0].replace("    ", "\t", 1) if indented else " " + target
        elsewhere = f"{word(rng)} = {mixed_text(rng, (3, 5))!r}"
        letters = [i for i, ch in enumerate(target) if ch in LETTERS]
        if not letters:
            continue
        at = rng.choice(letters)
        cased = target[:at] + target[at].upper() + target[at + 1:]
        plain = [line for line in lines if not set(line) & set(".^$*+?{}[]\\|()") and set(line) & set(LETTERS)]
        if not plain:
            continue
        model = rng.choice(plain)  # no regex syntax in it: with the `.`, a pattern that matches it
        dot = rng.choice([i for i, ch in enumerate(model) if ch in LETTERS])
        dotted = model[:dot] + "." + model[dot + 1:]
        misses = [("what.near_miss", swapped),  # kinds: keys of messages.toml
                  ("what.other_whitespace", spaced),
                  ("what.from_elsewhere", elsewhere),
                  ("what.other_case", cased),
                  ("what.letter_as_dot", dotted)]
        if (all(old not in text for _, old in misses) and text.lower().count(cased.lower()) == 1
                and len(re.findall(dotted, text)) == 1):
            rng.shuffle(misses)
            return text, lines, misses, target
