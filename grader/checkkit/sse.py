"""Server-sent event streams in the shape OpenAI-compatible providers send, byte for byte.

A stream is a list of *writes* (bytes the server sends and flushes in one go) and
*markers* between them: a `Gate` (stop until the check opens it), a `Pause`, a
`Drop` (break the connection here). Checks build one with `SSEStream`, chaining
calls: the provider-shaped chunks (`text`, `tool_call`, `finish`, `usage`,
`done`, `error`) and the raw framing the SSE format allows and clients get wrong
(`comment`, CRLF or CR line ends, `data:` without a space, one payload spread
over several `data:` lines, `raw` bytes). `split_at` then re-cuts the bytes at
any offsets, inside an event or a UTF-8 character, so that a client can only get
the text right by buffering bytes, not by trusting writes to line up with events.

The stream is data: `to_bytes()` is what a correct client reads, and `payloads()`
what a correct SSE parser must make of it; the server (`fakeserver`) plays it.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from . import provider

DONE = "[DONE]"


class Gate:
    """A point in a stream where the server stops until the check calls `open()`.

    `reached` is set once everything before the gate has been written to the
    socket, so a check can wait for it; `timed_out` tells, afterwards, that
    nobody opened the gate within `timeout` seconds and the server went on anyway
    (a check must never hang on its own gate).
    """

    def __init__(self, event: threading.Event | None = None, timeout: float = 10.0) -> None:
        self.event = event if event is not None else threading.Event()
        self.timeout = timeout
        self.reached = threading.Event()
        self.timed_out = False

    def open(self) -> None:
        self.event.set()


@dataclass(frozen=True)
class Pause:
    """Sleep between two writes (a slow provider), cut short when the server stops."""

    seconds: float


@dataclass(frozen=True)
class Drop:
    """Break the connection here: a chunked body stops without its last chunk."""


Marker = Gate | Pause | Drop


@dataclass
class SSEStream:
    """A builder for one streamed chat completion; every method returns the stream.

    `newline` ends every line ("\\n", "\\r\\n" or "\\r"); `space` puts the optional
    space after `data:`; ids and `model` only make the chunks look real.
    """

    model: str = field(default_factory=provider.model)  # this run's model (grader/checkkit/provider.py)
    newline: str = "\n"
    space: bool = True
    completion_id: str = field(default_factory=provider.completion_id)
    created: int = field(default_factory=lambda: provider.current().created)
    items: list[bytes | Marker] = field(default_factory=list)
    _payloads: list[str] = field(default_factory=list, init=False, repr=False)
    _usage: list[tuple[int, int]] = field(default_factory=list, init=False, repr=False)  # byte spans

    # -- raw framing ---------------------------------------------------------------

    def event(self, payload: dict | str, *, multiline: bool = False, newline: str | None = None,
              space: bool | None = None, comment: tuple[int, str] | None = None) -> SSEStream:
        """One event: `data: <payload>` and a blank line, in one write.

        With `multiline`, a dict payload is spread over several `data:` lines (its
        indented JSON, one line each): a correct client joins them with "\\n" and
        gets the same JSON text back. `comment=(k, text)` puts the comment line
        `:text` right after data line k (0-based) of the event, inside it: a comment
        is skipped, it neither ends the event nor drops the data lines read so far.
        """
        text = payload if isinstance(payload, str) else json.dumps(
            payload, ensure_ascii=False, indent=1 if multiline else None,
            separators=None if multiline else (",", ":"))
        nl = self.newline if newline is None else newline
        prefix = "data: " if (self.space if space is None else space) else "data:"
        lines = text.split("\n") if multiline else [text]
        self._payloads.append("\n".join(lines))
        written = [prefix + line + nl for line in lines]
        if comment is not None:
            at, said = comment
            written.insert(min(max(at, 0), len(lines) - 1) + 1, f":{said}{nl}")
        if _is_usage(payload):  # its bytes, to leave out for a request that did not ask for usage
            start = sum(len(w) for w in self.writes())
            self._usage.append((start, start + len(("".join(written) + nl).encode("utf-8"))))
        return self.raw("".join(written) + nl)

    def comment(self, text: str = "keep-alive") -> SSEStream:
        """A comment line (`: keep-alive`) and a blank line: a client must skip it."""
        return self.raw(f": {text}{self.newline}{self.newline}")

    def raw(self, data: bytes | str) -> SSEStream:
        """Exactly these bytes, in one write (str is UTF-8 encoded); not parsed here."""
        self.items.append(data.encode("utf-8") if isinstance(data, str) else bytes(data))
        return self

    # -- markers -----------------------------------------------------------------

    def gate(self, gate: Gate) -> SSEStream:
        """Stop here until `gate.open()` (or its timeout): the check sees what came before."""
        self.items.append(gate)
        return self

    def pause(self, seconds: float) -> SSEStream:
        """Wait between two writes, as a slow provider does."""
        self.items.append(Pause(seconds))
        return self

    def drop(self) -> SSEStream:
        """Break the connection here; a client sees an incomplete body, not a clean end."""
        self.items.append(Drop())
        return self

    # -- provider-shaped chunks ------------------------------------------------------

    def chunk(self, delta: dict | None = None, finish_reason: str | None = None, **extra) -> SSEStream:
        """A `chat.completion.chunk` with one choice; `extra` adds top-level keys."""
        choice = {"index": 0, "delta": delta or {}, "finish_reason": finish_reason}
        return self.event({**self._head(), "choices": [choice], **extra})

    def role(self) -> SSEStream:
        """The usual first chunk: the assistant role and empty content."""
        return self.chunk({"role": "assistant", "content": ""})

    def text(self, *pieces: str) -> SSEStream:
        """One content delta per piece."""
        for piece in pieces:
            self.chunk({"content": piece})
        return self

    def tool_call(self, index: int, arguments: str = "", *, id: str | None = None,
                  name: str | None = None, blank_id: bool = False) -> SSEStream:
        """One fragment of a tool call.

        The first fragment of a call carries `id` and `name` (and `type`); later
        ones carry only `index` and more of the arguments, with `"id": ""` when
        `blank_id` (some providers do) or no id at all.
        """
        call: dict = {"index": index}
        if id is not None:
            call.update(id=id, type="function", function={"name": name or "", "arguments": arguments})
        else:
            if blank_id:
                call["id"] = ""
            call["function"] = {"arguments": arguments}
        return self.chunk({"tool_calls": [call]})

    def tool_calls(self, calls: list[tuple[str, str, str]], pieces: int = 3,
                   interleave: bool = False, blank_id: bool = True) -> SSEStream:
        """Several calls `(id, name, arguments_json)`, each in `pieces` fragments.

        By default one call after the other (all of index 0's fragments, then index
        1's), as OpenAI streams parallel calls and its SDK's stream helper expects.
        With `interleave` the fragments alternate between calls (index 0, 1, 0, 1,
        ...): only for a check about assembling fragments by their index.
        """
        parts = [_cut(arguments, pieces) for _, _, arguments in calls]
        order = ([(k, n) for k in range(pieces) for n in range(len(calls))] if interleave
                 else [(k, n) for n in range(len(calls)) for k in range(pieces)])
        for k, n in order:
            call_id, name, _ = calls[n]
            if k == 0:
                self.tool_call(n, parts[n][0], id=call_id, name=name)
            else:
                self.tool_call(n, parts[n][k], blank_id=blank_id)
        return self

    def finish(self, reason: str = "stop") -> SSEStream:
        return self.chunk({}, finish_reason=reason)

    def usage(self, prompt_tokens: int = 10, completion_tokens: int = 5) -> SSEStream:
        """The `include_usage` chunk: no choices at all, only a usage object.

        A provider sends it only to a request that asked (`stream_options:
        {"include_usage": true}`); the server leaves it out of the reply to any other
        (`without_usage`), so a check can script it always.
        """
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "total_tokens": prompt_tokens + completion_tokens}
        return self.event({**self._head(), "choices": [], "usage": usage})

    def error(self, message: str, type: str = "server_error", code: str | None = None) -> SSEStream:
        """An `{"error": {...}}` payload, as providers send when a stream fails midway."""
        return self.event({"error": {"message": message, "type": type, "code": code}})

    def done(self) -> SSEStream:
        """`data: [DONE]`: the only sign that the stream ended on purpose."""
        return self.event(DONE)

    # -- reading it back -----------------------------------------------------------

    def split_at(self, *offsets: int) -> SSEStream:
        """Re-cut the writes so that a new write starts at each byte offset of `to_bytes()`.

        Markers keep their place; an offset may fall anywhere, inside a line or a
        multi-byte UTF-8 character.
        """
        cuts = sorted(set(offsets))
        items: list[bytes | Marker] = []
        position = 0
        for item in self.items:
            if not isinstance(item, bytes):
                items.append(item)
                continue
            start = position
            for cut in cuts:
                if position < cut < start + len(item):
                    items.append(item[position - start:cut - start])
                    position = cut
            items.append(item[position - start:])
            position = start + len(item)
        self.items = [i for i in items if not isinstance(i, bytes) or i]
        return self

    def without_usage(self) -> SSEStream:
        """A copy without the bytes of its usage chunks (markers kept, the other writes cut as they were)."""
        copy = SSEStream(self.model, self.newline, self.space, self.completion_id, self.created)
        position = 0
        for item in self.items:
            if not isinstance(item, bytes):
                copy.items.append(item)
                continue
            kept, end = item, position + len(item)
            for a, z in reversed(self._usage):  # cut each span's overlap with this write, last first
                lo, hi = max(a, position), min(z, end)
                if lo < hi:
                    kept = kept[:lo - position] + kept[hi - position:]
            position = end
            if kept:
                copy.items.append(kept)
        copy._payloads = [p for p in self._payloads if not _is_usage(p)]
        return copy

    def writes(self) -> list[bytes]:
        """The bytes of each write, in order (markers left out)."""
        return [item for item in self.items if isinstance(item, bytes)]

    def to_bytes(self) -> bytes:
        return b"".join(self.writes())

    def payloads(self) -> list[str]:
        """The data of every event built with `event()` (and the methods on it), in order.

        Bytes added with `raw()` are not included: they are the check's own business.
        """
        return list(self._payloads)

    def _head(self) -> dict:
        return {"id": self.completion_id, "object": "chat.completion.chunk",
                "created": self.created, "model": self.model}


def _is_usage(payload: dict | str) -> bool:
    """Whether a payload is the `include_usage` chunk (no choices, a usage object)."""
    try:
        value = json.loads(payload) if isinstance(payload, str) else payload
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("choices") == [] and "usage" in value


def _cut(text: str, pieces: int) -> list[str]:
    """`text` in `pieces` consecutive parts (some may be empty when text is short)."""
    size = -(-len(text) // pieces) if text else 0
    return [text[k * size:(k + 1) * size] for k in range(pieces)]
