"""Random pieces of a generated log: text, session ids, times and the run's seed.

Only `random.Random` methods whose results are stable across Python versions are used
(randint, randrange, choice, choices, sample, shuffle, getrandbits, random), so a seed
printed by one grader run reproduces the same logs on another machine.
"""

from __future__ import annotations

import random
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone

# ----------------------------------------------------------------------------- text

ASCII_WORDS = ("run", "the", "tests", "fix", "calc", "divide", "zero", "log", "resume", "fork",
               "agent", "please", "which", "case", "fails", "again", "session", "line", "seq", "now")
CJK_WORDS = ("中文", "日本語", "测试", "修复", "会話", "履歴", "错误", "ログ", "한국어", "漢字")
# Every one holds a 4-byte UTF-8 sequence: code that assumes 3 bytes at most (or counts
# UTF-16 units) breaks on them. The ZWJ sequence and the flag are several code points each.
EMOJI = ("🙂", "🚀", "🧪", "🐍", "🔥", "👩‍💻", "🇯🇵")
# What breaks hand-made escaping: quotes, backslashes, a tab, a newline inside a value
# (json.dumps writes it as \n, so it never splits a line), a literal backslash-n and a
# literal \u escape (a second unescape would change them), a 2-byte accent.
TRICKY = ('"quoted"', "it's", "back\\slash", "C:\\new\\table", "tab\there", "two\nlines",
          "\\u00e9", "{braces}", "café", "line\u2028separator", "next\x85line")
# Line breaks that json.dumps(ensure_ascii=False) leaves as they are (it escapes only
# control characters below U+0020): raw in a log line, they split it for str.splitlines().
UNESCAPED_BREAKS = ("\u2028", "\u2029", "\x85")
FIX_PHRASES = ("fix it", "please fix it", "fix it now", "修复它", "直して", "fix it 🙏")


def mixed_text(rng: random.Random, words: tuple[int, int] = (3, 9)) -> str:
    """Text of `words` pieces (at least 3): always an ASCII word, a CJK word and an emoji,
    the rest drawn from all kinds, tricky ones included."""
    count = max(3, rng.randint(*words))
    pieces = [rng.choice(ASCII_WORDS), rng.choice(CJK_WORDS), rng.choice(EMOJI)]
    pools = (ASCII_WORDS, ASCII_WORDS, CJK_WORDS, EMOJI, TRICKY)
    pieces += [rng.choice(rng.choice(pools)) for _ in range(count - 3)]
    rng.shuffle(pieces)
    return " ".join(pieces)


# ----------------------------------------------------------------------------- voices

# How a session speaks. Real sessions are mostly in plain English, many in one other script,
# some mixed; inputs in which every text mixes CJK and emoji are recognisably the grader's,
# and logic right only for them (a heuristic keyed to non-Latin text) would pass. A check
# whose verdict could rest on what the text looks like draws logs in each voice.
VOICES = ("plain", "one-script", "mixed")
ENGLISH = ("the", "test", "tests", "suite", "fails", "failing", "case", "divide", "by", "zero", "please",
           "run", "again", "fix", "it", "now", "what", "went", "wrong", "with", "this", "function",
           "looks", "like", "we", "need", "to", "check", "a", "guard", "before", "returning", "result",
           "I", "see", "one", "error", "in", "module", "let", "me", "read", "file", "first", "and",
           "then", "change", "that", "line", "should", "work", "thanks", "can", "you", "explain", "why")
ENGLISH_MARKS = (", ", ". ", " - ", "'s ", "? ", ": ")  # as people type it: plain ASCII
SCRIPTS = (
    ("修复", "测试", "失败", "除以", "零", "函数", "请", "再", "运行", "一次", "结果", "错误", "文件", "检查", "现在"),
    ("テスト", "失敗", "修正", "して", "ください", "関数", "ゼロ", "除算", "もう一度", "実行", "結果", "エラー"),
    ("테스트", "실패", "수정", "해", "주세요", "함수", "영으로", "나누기", "다시", "실행", "결과", "오류"),
)
_voice: ContextVar[str] = ContextVar("voice", default="mixed")


def plain_text(rng: random.Random, words: tuple[int, int] = (3, 9)) -> str:
    """A sentence or two of plain English: ASCII words, a capital, punctuation."""
    count = max(2, rng.randint(*words))
    out = rng.choice(ENGLISH).capitalize()
    for _ in range(count - 1):
        out += (rng.choice(ENGLISH_MARKS) if rng.random() < 0.15 else " ") + rng.choice(ENGLISH)
    return out + rng.choice((".", "!", "?", ""))


def script_text(rng: random.Random, words: tuple[int, int] = (3, 9)) -> str:
    """Text in one script other than Latin throughout (Chinese, Japanese or Korean)."""
    pool = rng.choice(SCRIPTS)
    joiner = " " if pool is SCRIPTS[2] else ""
    return joiner.join(rng.choice(pool) for _ in range(max(2, rng.randint(*words)))) + rng.choice(("。", "", "！"))


def said(rng: random.Random, words: tuple[int, int] = (3, 9)) -> str:
    """What a session says, in the voice it speaks (`speaking`); mixed unless told otherwise."""
    voice = _voice.get()
    if voice == "plain":
        return plain_text(rng, words)
    if voice == "one-script":
        return script_text(rng, words)
    return mixed_text(rng, words)


# How long a turn of a real session is, in words: a user types anything from a word or two to
# a paragraph, an assistant answers in a line or in several paragraphs. A log whose every
# message is 3 to 9 words is recognisably made; these are (weight, fewest, most) per role.
TURN_WORDS = {
    "user": ((2, 1, 3), (5, 4, 14), (2, 15, 40), (1, 41, 90)),
    "assistant": ((2, 2, 10), (4, 11, 40), (2, 41, 120), (1, 121, 260)),
}


def turn_text(rng: random.Random, role: str) -> str:
    """What a user or an assistant says in one turn, in the voice the session speaks, at a
    length real sessions have (`TURN_WORDS`): long ones are several sentences, an
    assistant's long answer several paragraphs."""
    weights, spans = zip(*((w, (lo, hi)) for w, lo, hi in TURN_WORDS[role]))
    low, high = rng.choices(spans, weights=weights)[0]
    total = rng.randint(low, high)
    if total < 3:  # a word or two ("thanks", "fix it"); mixed: its three pieces, no fewer
        if _voice.get() == "mixed":
            return said(rng, (3, 3))
        return " ".join(said(rng, (2, 3)).split(" ")[:max(1, total)]) or said(rng, (2, 3))
    sentences, left = [], total
    while left > 0:
        size = min(left, rng.randint(6, 18))
        sentences.append(said(rng, (max(3, size), max(3, size))))
        left -= size
    out = sentences[0]
    for sentence in sentences[1:]:
        out += ("\n\n" if role == "assistant" and rng.random() < 0.25 else " ") + sentence
    return out


def voiced(rng: random.Random, k: int, words: tuple[int, int] = (3, 9)) -> str:
    """One line of text in the voice `VOICES[k % 3]` (plain English, one other script, mixed):
    a run's texts drawn with k = 0, 1, 2, ... speak every voice a real session has."""
    make = (plain_text, script_text, mixed_text)[k % 3]
    return " ".join(make(rng, words).split())


def voice_now() -> str:
    return _voice.get()


@contextmanager
def speaking(voice: str):
    """Every `said` text inside is in `voice` (one of VOICES)."""
    if voice not in VOICES:
        raise ValueError(f"unknown voice {voice!r}; one of {', '.join(VOICES)}")
    token = _voice.set(voice)
    try:
        yield
    finally:
        _voice.reset(token)


# ----------------------------------------------------------------------------- seeds, ids, time

def new_seed() -> int:
    """A fresh seed for one grading run (the report prints it; `--seed N` replays it)."""
    return secrets.randbelow(2**32)


def rng_for(seed: int, label: str) -> random.Random:
    """An independent stream per use (per check, say), so that adding a draw in one
    check does not change the logs every other check reads for the same seed."""
    return random.Random(f"{seed}:{label}")  # str seeds are hashed with sha512: stable


# Sessions made in 2023-2025: always in the past, so a session the lab creates during a
# check is the newest by name, as the contract's "latest" needs.
FIRST_TIME = datetime(2023, 1, 1, tzinfo=timezone.utc)
SPAN_SECONDS = 3 * 365 * 86_400


def random_time(rng: random.Random) -> datetime:
    """A plausible UTC session start, to the millisecond."""
    return FIRST_TIME + timedelta(seconds=rng.randrange(SPAN_SECONDS), milliseconds=rng.randrange(1000))


def utc_ts(when: datetime) -> str:
    """ISO-8601 UTC with milliseconds and `Z`, the way the reference writes `ts`."""
    when = when.astimezone(timezone.utc)
    return f"{when:%Y-%m-%dT%H:%M:%S}.{when.microsecond // 1000:03d}Z"


def parse_ts(text: str) -> datetime:
    """The inverse of `utc_ts`."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def session_id(rng: random.Random, when: datetime) -> str:
    """`s-YYYYMMDD-HHMMSS-xxxx`: the UTC creation time, then 4 random lowercase hex digits."""
    return f"s-{when.astimezone(timezone.utc):%Y%m%d-%H%M%S}-{rng.getrandbits(16):04x}"
