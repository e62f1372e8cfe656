"""Day 04's generated inputs: file names, file texts to edit, command outputs, contents
to write, time limits. Everything comes from the check's `ctx.rng(...)`, so a seed
replays it and nothing can be memorised."""

from __future__ import annotations

import random
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
