"""What each reference becomes in the message.

By what it names:

* a file: its text, exactly (``@calc.py``);
* a directory: a listing, one entry a line (hidden ones too), files with their size in bytes, never
  their contents (``@src/`` or ``@src``): the model asks for the files it wants;
* a URL: the page, fetched with a time limit and reduced to text (``fetch.py``);
* an image (``.png``, ``.jpg``, ``.jpeg``, ``.gif``, ``.webp``): the image itself, as a
  base64 ``data:`` URL in an ``image_url`` part of the message.

Every text is capped (day 3's ``truncate``) and the cut is declared, in the text and on
the bill. Paths stay inside the workdir (day 3's ``resolve_inside``). A reference that
cannot be resolved (missing, outside, a binary file, a page that does not answer) is
a note for the user, never a crash: the message is still sent, without it.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from ..tools.base import ToolError
from ..tools.paths import resolve_inside
from ..tools.truncate import truncate
from .fetch import FETCH_TIMEOUT, FetchError, fetch_url

MAX_INJECT_CHARS = 12000         # one reference's text, at most (the cut is declared)
MAX_LISTING = 200                # entries of one directory listing
MAX_IMAGE_BYTES = 4 * 1024 * 1024  # an image larger than this is not sent (it cannot be cut)
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}


@dataclass
class Injection:
    """One reference, resolved: what it is, what goes into the message, or why nothing does.

    ``text`` is what the model reads for it (the file's text, the listing, the page); an
    image has its ``data:`` URL in ``image_url`` instead. ``chars`` counts what is sent
    (the text, or the data URL); ``original`` is the size before the cap, when it cut.
    """

    ref: str
    kind: str                    # "file", "dir", "url", "image", or "missing"
    text: str = ""
    image_url: str | None = None
    original: int | None = None  # characters before the cap, if the cap cut
    note: str | None = None      # why the reference was not injected

    @property
    def sent(self) -> str:
        return self.image_url if self.image_url is not None else self.text

    @property
    def chars(self) -> int:
        return len(self.sent)

    @property
    def truncated(self) -> bool:
        return self.original is not None


def not_injected(ref: str, why: str) -> Injection:
    return Injection(ref, "missing", note=why)


def capped(ref: str, kind: str, text: str) -> Injection:
    """An injection of ``text``, cut to MAX_INJECT_CHARS with the cut said inside it."""
    cut, was_cut = truncate(text, MAX_INJECT_CHARS)
    return Injection(ref, kind, cut, original=len(text) if was_cut else None)


def inject(ref: str, workdir: Path) -> Injection:
    """What ``ref`` (a reference without its ``@``) becomes, by kind, each with its cap."""
    if ref.startswith(("http://", "https://")):
        try:
            return capped(ref, "url", fetch_url(ref, FETCH_TIMEOUT))
        except FetchError as exc:
            return not_injected(ref, str(exc))
    try:
        path = resolve_inside(workdir, ref)
    except ToolError as exc:
        return not_injected(ref, str(exc))
    if path.is_dir():
        return capped(ref, "dir", listing(path))
    if not path.is_file():
        return not_injected(ref, "no such file or directory in the workdir")
    if path.suffix.lower() in IMAGE_TYPES:
        return image(ref, path)
    try:
        return capped(ref, "file", path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        return not_injected(ref, "not a text file (only UTF-8 text and images are injected)")


def listing(directory: Path) -> str:
    """One entry a line, sorted by name: ``name/`` for a directory, ``name  123 bytes`` for a file."""
    entries = sorted(directory.iterdir(), key=lambda p: p.name)
    lines = []
    for entry in entries[:MAX_LISTING]:
        if entry.is_dir():
            lines.append(entry.name + "/")
        else:
            lines.append(f"{entry.name}  {entry.stat().st_size} bytes")
    if len(entries) > MAX_LISTING:
        lines.append(f"... and {len(entries) - MAX_LISTING} more entries")
    return "\n".join(lines) + "\n" if lines else "(empty directory)\n"


def image(ref: str, path: Path) -> Injection:
    """An image as a data URL; one too large to send is a note (an image cannot be cut)."""
    data = path.read_bytes()
    if len(data) > MAX_IMAGE_BYTES:
        return not_injected(ref, f"image of {len(data)} bytes is over the {MAX_IMAGE_BYTES}-byte limit")
    kind = IMAGE_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "image/png"
    encoded = base64.b64encode(data).decode("ascii")
    return Injection(ref, "image", image_url=f"data:{kind};base64,{encoded}")


def header(injection: Injection) -> str:
    """The line that opens a reference's block in the message."""
    size = f"{injection.chars} chars"
    if injection.truncated:
        size += f", cut from {injection.original}"
    if injection.kind == "image":
        return f"[@{injection.ref}: image, attached below]"
    return f"[@{injection.ref}: {injection.kind}, {size}]"


def compose(text: str, injections: list[Injection]) -> str | list[dict]:
    """The user message's content: what was typed, then each injected block.

    Text only: one string. With an image: the same string as the first part, then one
    ``image_url`` part per image, as OpenAI-compatible APIs take them.
    """
    sent = [i for i in injections if i.note is None]
    if not sent:
        return text
    blocks = [text]
    for injection in sent:
        if injection.kind == "image":
            blocks.append(header(injection))
            continue
        body = injection.text if injection.text.endswith("\n") else injection.text + "\n"
        blocks.append(f"{header(injection)}\n{body}[end of @{injection.ref}]")
    joined = "\n\n".join(blocks)
    images = [i for i in sent if i.kind == "image"]
    if not images:
        return joined
    return [{"type": "text", "text": joined}] + [
        {"type": "image_url", "image_url": {"url": i.image_url}} for i in images]
