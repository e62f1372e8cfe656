"""Day 02: the replies the grader's fake model server streams, generated for this run.

Everything here is data built from `ctx.rng(...)`: the text (ASCII, CJK, emoji and
the tricky pieces of grader.checkkit.draws, plus one raw U+2028, U+2029 or U+0085,
which only `str.splitlines()` takes for a line break, and in the framing checks a
delta whose content says "[DONE]" and a reply with white space at both ends), where it is cut into pieces, the framing of every
event (LF or CRLF, a space after `data:` or none, one payload over several `data:`
lines), where keep-alive comments go (between events, and between the data lines of
one event), and where the bytes are split into writes. A stream is an `SSEStream` (grader/checkkit/sse.py); what a
correct client must make of it is known here, so a check compares exactly.

Edge cases every draw holds (tests/checks/day02 asserts them): in sse-framing and in
sse-split-anywhere, one turn's delta says "[DONE]" and one turn's reply (`padded`) has
spaces, tabs or line breaks at both ends, so the assistant message the agent keeps is
compared with the streamed text exactly, its ends included; sse-split-anywhere's
byte-by-byte turn has no comments, so a CRLF event (every_feature puts one in each
stream) is followed at once by another event, split between every CR and LF.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI, UNESCAPED_BREAKS, mixed_text
from grader.checkkit.sse import DONE, SSEStream

# What providers put in their comments: a blank one, keep-alives, OpenRouter's notice.
COMMENTS = ("", " keep-alive", " OPENROUTER PROCESSING", "ping")
# One event's framing: (newline, space after "data:", payload over several data: lines).
PLAIN = ("\n", True, False)
FEATURES = (("\r\n", True, False), ("\n", False, False), ("\n", True, True), ("\r\n", False, True))


def reply_text(rng: random.Random, words: tuple[int, int] = (6, 14)) -> str:
    """A reply: mixed text with one raw line separator somewhere inside it."""
    parts = mixed_text(rng, words).split(" ")
    parts.insert(rng.randrange(1, len(parts)), rng.choice(UNESCAPED_BREAKS))
    return " ".join(parts)


# White space models start or end a reply with: an indented first line, a closing line break.
LEADING = (" ", "  ", "\n", "\n\n", " \n", "\t")
TRAILING = ("\n", " ", "\n\n", "  \n", " \n ", "\t\n")


def padded(rng: random.Random, text: str) -> str:
    """`text` with white space at both ends (a line break always among the end's)."""
    end = rng.choice(TRAILING)
    return rng.choice(LEADING) + text + (end if "\n" in end else end + "\n")


# What a reply may say about the protocol itself: "[DONE]" inside a delta's content is text,
# not the end of the stream (only an event whose whole data is [DONE] ends it).
DONE_MARKERS = ("[DONE]", "data: [DONE]", "`data: [DONE]` ends a stream", "[DONE] 完了", "✅ [DONE]",
                "data:[DONE]", "[DONE]\u2028")


def with_done_marker(rng: random.Random, text: str) -> tuple[str, tuple[int, int]]:
    """`text` with one of DONE_MARKERS put between two of its words; and the marker's span."""
    parts = text.split(" ")
    at = rng.randrange(0, len(parts) + 1)
    marker = rng.choice(DONE_MARKERS)
    start = len(" ".join(parts[:at])) + (1 if at else 0)
    marked = " ".join([*parts[:at], marker, *parts[at:]])
    return marked, (start, start + len(marker))


def cut_keeping(rng: random.Random, text: str, pieces: int, keep: tuple[int, int]) -> list[str]:
    """Like `cut`, but never inside `text[keep[0]:keep[1]]`: one piece holds that span whole."""
    allowed = [i for i in range(1, len(text)) if not keep[0] < i < keep[1]]
    points = sorted(rng.sample(allowed, max(0, min(pieces - 1, len(allowed)))))
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def short_text(rng: random.Random) -> str:
    """A few words on one line (a user line, an error message): ASCII, CJK and an emoji."""
    words = [rng.choice(ASCII_WORDS), rng.choice(CJK_WORDS), rng.choice(EMOJI), rng.choice(ASCII_WORDS)]
    rng.shuffle(words)
    return " ".join(words)


def cut(rng: random.Random, text: str, pieces: int) -> list[str]:
    """`text` in `pieces` non-empty consecutive parts cut at random places."""
    pieces = max(1, min(pieces, len(text)))
    points = sorted(rng.sample(range(1, len(text)), pieces - 1))
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def tool_name(rng: random.Random) -> str:
    return f"{rng.choice(('read', 'find', 'list', 'grep', 'show', 'count'))}_{rng.choice(ASCII_WORDS)}"


def tool_args(rng: random.Random) -> dict:
    """Arguments a model might send: strings with CJK, emoji, quotes, escapes; a number; a flag."""
    args = {"path": f"{rng.choice(ASCII_WORDS)}/{rng.choice(CJK_WORDS)}.py", "note": mixed_text(rng, (3, 6))}
    if rng.random() < 0.5:
        args["limit"] = rng.randrange(1, 10_000)
    if rng.random() < 0.5:
        args["all"] = rng.choice((True, False))
    return args


def call_id(rng: random.Random) -> str:
    return f"call_{rng.getrandbits(48):012x}"


@dataclass
class Reply:
    """One streamed chat completion, built event by event with the framing chosen per event.

    `framing(k)` gives event k's (newline, space, multiline); `comments` is the chance
    of a keep-alive comment before an event (one always comes before the first).
    """

    rng: random.Random
    model: str
    framing: object = None           # a callable k -> (newline, space, multiline), or None: PLAIN
    comments: float = 0.0
    stream: SSEStream | None = None
    events: int = 0

    def __post_init__(self) -> None:
        self.stream = SSEStream(self.model, completion_id=f"chatcmpl-{self.rng.getrandbits(40):010x}")
        self._first_comments = self.rng.sample(("", " keep-alive"), 2)  # a bare `:` and one with a space, always
        self._inner_comment = True  # with comments, the first multi-line event always has one inside it

    def _frame(self) -> tuple[str, bool, bool]:
        frame = self.framing(self.events) if self.framing else PLAIN
        self.events += 1
        return frame

    def event(self, payload: dict | str) -> Reply:
        newline, space, multiline = self._frame()
        if self.comments and (self._first_comments or self.rng.random() < self.comments):
            text = self._first_comments.pop() if self._first_comments else self.rng.choice(COMMENTS)
            self.stream.raw(f":{text}{newline}{newline}")
        multiline = multiline and isinstance(payload, dict)
        inner = None
        if multiline and self.comments and (self._inner_comment or self.rng.random() < self.comments):
            # a keep-alive between two data lines of one event: it does not end the event
            self._inner_comment = False
            count = len(json.dumps(payload, ensure_ascii=False, indent=1).split("\n"))
            inner = (self.rng.randrange(0, count - 1), self.rng.choice(COMMENTS))
        self.stream.event(payload, multiline=multiline, newline=newline, space=space, comment=inner)
        return self

    def chunk(self, delta: dict, finish: str | None = None) -> Reply:
        return self.event({"id": self.stream.completion_id, "object": "chat.completion.chunk",
                           "created": self.stream.created, "model": self.model,
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    def role(self) -> Reply:
        return self.chunk({"role": "assistant", "content": ""})

    def text(self, pieces: list[str]) -> Reply:
        for piece in pieces:
            self.chunk({"content": piece})
        return self

    def fragment(self, index: int, arguments: str, *, id: str | None = None, name: str | None = None) -> Reply:
        """One tool-call fragment: the first of a call brings id and name, later ones `"id": ""`."""
        if id is not None:
            call = {"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
        else:
            call = {"index": index, "id": "", "function": {"arguments": arguments}}
        return self.chunk({"tool_calls": [call]})

    def finish(self, reason: str = "stop") -> Reply:
        return self.chunk({}, reason)

    def usage(self, prompt: int, completion: int) -> Reply:
        return self.event({"id": self.stream.completion_id, "object": "chat.completion.chunk",
                           "created": self.stream.created, "model": self.model, "choices": [],
                           "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                                     "total_tokens": prompt + completion}})

    def done(self) -> Reply:
        return self.event(DONE)


def every_feature(rng: random.Random, events: int):
    """A framing for `events` events that uses CRLF, LF, no space and multi-line data each at
    least once (in random places), so a stream always holds every edge the check names."""
    frames = list(FEATURES) + [rng.choice(FEATURES + (PLAIN,)) for _ in range(max(0, events - len(FEATURES)))]
    rng.shuffle(frames)
    return lambda k: frames[k] if k < len(frames) else FEATURES[k % len(FEATURES)]


def string_spaces(text: str) -> list[int]:
    """Offsets of the spaces inside the string literals of a JSON text."""
    found, inside, escaped = [], False, False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = inside
        elif ch == '"':
            inside = not inside
        elif ch == " " and inside:
            found.append(i)
    return found


def cut_json(rng: random.Random, text: str, pieces: int) -> list[str]:
    """`text` (JSON) in `pieces` non-empty parts; one cut always falls right before a space
    inside a string, so a fragment starts with a space that belongs to the value."""
    spaces = [i for i in string_spaces(text) if i > 0]
    must = {rng.choice(spaces)} if spaces else set()
    others = [i for i in range(1, len(text)) if i not in must]
    points = sorted(must | set(rng.sample(others, max(0, min(pieces - 1 - len(must), len(others))))))
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def interleaved(rng: random.Random, calls: list[tuple[str, str, dict]], together: bool = True) -> list[tuple[int, str]]:
    """The fragments of several calls: (index, text).

    Each call's arguments JSON is cut at random places (one next to a space inside a
    string) into the same number of fragments, at least two. With `together` they
    alternate by index (0, 1, 0, 1, ...), so no call is whole before the others start:
    the robustness case of a check about assembling fragments by their index. Without
    it the calls come one after the other (all of index 0's fragments, then index 1's),
    as OpenAI streams parallel calls. Either way the stream opens with index 0.
    """
    texts = [json.dumps(args, ensure_ascii=rng.random() < 0.3) for _, _, args in calls]
    count = rng.randint(2, 5)
    parts = [cut_json(rng, text, count) for text in texts]
    count = min(len(p) for p in parts)
    parts = [p[:count - 1] + ["".join(p[count - 1:])] for p in parts]
    if together:
        return [(index, parts[index][k]) for k in range(count) for index in range(len(calls))]
    return [(index, parts[index][k]) for index in range(len(calls)) for k in range(count)]


def cut_points(rng: random.Random, data: bytes, extra: int) -> list[int]:
    """Byte offsets that split a stream where readers break: inside a 2-, 3- and 4-byte
    UTF-8 character, between CR and LF (also inside the blank line that ends an event),
    inside `data:` and right after its colon, inside `[DONE]`; then `extra` random ones."""
    inside: dict[int, list[int]] = {}
    position = 0
    for char in data.decode("utf-8"):
        size = len(char.encode("utf-8"))
        if size > 1:
            inside.setdefault(size, []).append(position + rng.randrange(1, size))
        position += size
    points = [rng.choice(found) for found in inside.values()]
    crlf = [i + 1 for i in range(len(data) - 1) if data[i:i + 2] == b"\r\n"]
    blank = [i + 3 for i in range(len(data) - 3) if data[i:i + 4] == b"\r\n\r\n"]
    fields = [i for i in range(len(data)) if data.startswith(b"data:", i)]
    done = data.find(DONE.encode())
    points += rng.sample(crlf, min(3, len(crlf))) + rng.sample(blank, min(2, len(blank)))
    points += [i + 2 for i in rng.sample(fields, min(2, len(fields)))]
    points += [i + 5 for i in rng.sample(fields, min(2, len(fields)))]
    if done >= 0:
        points.append(done + 3)
    points += [rng.randrange(1, len(data)) for _ in range(extra)]
    return sorted(set(p for p in points if 0 < p < len(data)))


def inside_a_character(rng: random.Random, data: bytes) -> int:
    """An offset that falls inside one of the multi-byte UTF-8 characters of `data`."""
    spots, position = [], 0
    for char in data.decode("utf-8"):
        size = len(char.encode("utf-8"))
        if size > 1:
            spots.append(position + rng.randrange(1, size))
        position += size
    return rng.choice(spots)


def cut_cases(rng: random.Random, model: str, usage: tuple[int, int]) -> list[tuple[str, Reply, str | None]]:
    """(what, reply, what the error line must say: "cut", the server's message, or None for
    a clean reply): a stream with [DONE], cut after an event, cut inside an event (and a
    character), broken off mid-event, and with an error payload as an object and as a string."""
    message, other = short_text(rng), short_text(rng)

    def start() -> Reply:
        return Reply(rng, model).role().text(cut(rng, reply_text(rng), rng.randint(2, 4)))

    whole = start().finish().usage(*usage).done()
    after_event = start().finish().usage(*usage)
    partial = Reply(rng, model).chunk({"content": reply_text(rng)}).stream.to_bytes()
    inside = start()
    inside.stream.raw(partial[:inside_a_character(rng, partial)])
    broken = start()
    broken.stream.raw(partial[:rng.randrange(8, len(partial) - 3)]).drop()
    error_object = start()
    error_object.stream.error(message)
    error_text = start().event({"error": other}).done()
    return [("what.complete", whole, None),  # keys of messages.toml
            ("what.ended_after_event", after_event, "cut"),
            ("what.ended_inside_event", inside, "cut"),
            ("what.connection_broke", broken, "cut"),
            ("what.error_object", error_object, message),
            ("what.error_string", error_text, other)]
