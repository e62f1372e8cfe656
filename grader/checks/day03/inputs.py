"""Day 03: what the checks generate per run - file names and texts, calc.py, long outputs,
escape paths. Everything is drawn from a `random.Random` the check takes from `ctx.rng`.

Names mix ASCII and CJK but stay plain (no spaces, commas, quotes or the word "and"),
so the mock's own parsing of a request never splits one; texts mix ASCII, CJK, emoji and
characters that trip hand-made escaping, but no line separators other than "\\n" (a
U+2028 would make "the last line" mean two things).
"""

from __future__ import annotations

import random
import string

from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI, ENGLISH, plain_text, script_text

PLAIN_TRICKY = ('"quoted"', "it's", "back\\slash", "C:\\new\\table", "tab\there", "naïve", "{braces}",
                "café", "a<b>&c")
IDENT_CJK = ("计算", "数据", "结果", "文件", "测试", "変数", "関数", "値", "名前", "行")
ERRORS = ("ValueError", "KeyError", "RuntimeError", "ZeroDivisionError", "FileNotFoundError",
          "AssertionError", "TypeError", "PermissionError")


def token(rng: random.Random, length: int = 8) -> str:
    return "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(length))


def words(rng: random.Random, count: tuple[int, int] = (3, 9)) -> str:
    """A line of text: always an ASCII word, a CJK word and an emoji, then anything."""
    pieces = [rng.choice(ASCII_WORDS), rng.choice(CJK_WORDS), rng.choice(EMOJI)]
    pools = (ASCII_WORDS, ASCII_WORDS, CJK_WORDS, EMOJI, PLAIN_TRICKY)
    pieces += [rng.choice(rng.choice(pools)) for _ in range(max(0, rng.randint(*count) - 3))]
    rng.shuffle(pieces)
    return " ".join(pieces)


def identifier(rng: random.Random) -> str:
    """A Python name, ASCII or CJK (both are \\w for the mock's regular expressions)."""
    first = rng.choice([rng.choice(string.ascii_lowercase), rng.choice(IDENT_CJK)])
    rest = "".join(rng.choice([rng.choice(string.ascii_lowercase), rng.choice(IDENT_CJK), "_",
                               rng.choice(string.digits)]) for _ in range(rng.randint(1, 6)))
    name = first + rest
    return name if name not in ("and", "or", "not", "if", "in", "is", "def", "for") else name + "_x"


def file_name(rng: random.Random, suffixes: tuple[str, ...] = (".py", ".txt", ".md", ".log")) -> str:
    """A file name no lab can know: ASCII and CJK, a random tag, a suffix."""
    stem = rng.choice([rng.choice(ASCII_WORDS), rng.choice(CJK_WORDS)])
    stem += rng.choice(["_", "-", ""]) + rng.choice([rng.choice(CJK_WORDS), token(rng, 4)])
    if stem.lower() in ("and",) or " " in stem:
        stem = "f_" + token(rng, 5)
    return stem + "_" + token(rng, 3) + rng.choice(suffixes)


def text_file(rng: random.Random, lines: tuple[int, int] = (3, 12)) -> str:
    """A small text file; it ends with a newline or not, by chance."""
    body = "\n".join(words(rng) for _ in range(rng.randint(*lines)))
    return body + ("\n" if rng.random() < 0.7 else "")


def python_module(rng: random.Random) -> tuple[str, list[str]]:
    """A module with a few top-level functions and a class (names ASCII or CJK); (text, names)."""
    names: list[str] = []
    count = rng.randint(2, 4)
    while len(names) < count:
        name = identifier(rng)
        if name not in names:
            names.append(name)
    parts = [f'"""{words(rng)}."""\n']
    for index, name in enumerate(names):
        if index == len(names) - 1 and rng.random() < 0.5:
            parts.append(f"class {name}:\n    \"\"\"{words(rng, (2, 5))}.\"\"\"\n\n    value = {rng.randint(0, 999)}\n")
        else:
            parts.append(f"def {name}(x):\n    # {words(rng, (2, 5))}\n    return x * {rng.randint(2, 99)}\n")
    return "\n\n".join(parts), names


def calc_module(rng: random.Random) -> tuple[str, str, str]:
    """A calc.py with divide last, its parameters and last line drawn for this run;
    (text, the def line, the last line of divide's body)."""
    a, b = identifier(rng), identifier(rng)
    while b == a:
        b = identifier(rng)
    define = f"def divide({a}, {b}):"
    last = f"return {a} / {b}  # {token(rng, 6)} {rng.choice(CJK_WORDS)}"
    body = [f'    """{words(rng, (2, 6))}."""']
    if rng.random() < 0.5:
        body.append(f"    # {words(rng, (2, 5))}")
    body.append(f"    {last}")
    head = [f'"""{words(rng)}."""', "", "", "def add(a, b):", "    return a + b", "", "",
            "def sub(a, b):", "    return a - b", "", "", "def mul(a, b):", "    return a * b", "", ""]
    return "\n".join(head + [define] + body) + "\n", define, last


def letters(rng: random.Random, length: int = 6) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(length))


def voiced(rng: random.Random, voice: str, count: tuple[int, int] = (3, 9)) -> str:
    """A line of text in a voice (draws.VOICES): plain English, one script, or mixed (`words`)."""
    if voice == "plain":
        return plain_text(rng, count)
    if voice == "one-script":
        return script_text(rng, count)
    return words(rng, count)


def long_output(rng: random.Random, size: int, last_length: int | None = None,
                voice: str = "mixed") -> tuple[str, str, str]:
    """About `size` characters of a command's output: lines of text without a digit (so
    every number in a truncated result is the cut's own), the last one an error message: short
    (at most 40 characters, so any honest tail of a 200-character limit holds it whole), or, with
    `last_length`, at least that long (a tail of a fixed size loses it). (text, first line, last line).
    `voice`: plain English (real tool output mostly is), one script, or mixed."""
    plain = voice == "plain"
    first = f"$ run {letters(rng, 5)}{'' if plain else ' ' + rng.choice(CJK_WORDS)} --verbose"
    lines = [first]
    total = len(first)
    while total < size:
        line = voiced(rng, voice, (4, 12))
        lines.append(line)
        total += len(line) + 1
    last = (f"{rng.choice(ERRORS)}: {rng.choice(ENGLISH)} {letters(rng, 6)}" if plain else
            f"{rng.choice(ERRORS)}: {rng.choice(CJK_WORDS)} {letters(rng, 6)} {rng.choice(EMOJI)}")
    while last_length is not None and len(last) < last_length:
        last += " " + rng.choice([rng.choice(ASCII_WORDS), letters(rng, rng.randint(3, 9))] +
                                 ([] if plain else [rng.choice(CJK_WORDS)]))
    lines.append(last)
    return "\n".join(lines) + ("\n" if rng.random() < 0.5 else ""), first, last


def text_of_length(rng: random.Random, length: int, voice: str = "mixed") -> str:
    """Exactly `length` characters of lines of text without a digit (CJK count one each), in
    plain English, one script or mixed (`voice`)."""
    pieces: list[str] = []
    total = 0
    while total < length:
        line = voiced(rng, voice, (3, 10)) + "\n"
        pieces.append(line)
        total += len(line)
    return "".join(pieces)[:length]
