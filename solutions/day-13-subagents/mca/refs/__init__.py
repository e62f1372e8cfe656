"""@-references: what the user points at becomes part of the message, with a bill.

``@calc.py`` (a file's text), ``@src/`` (a directory's listing, names and sizes),
``@https://host/page`` (the page, reduced to text) and ``@diagram.png`` (the image
itself) save the model the rounds of glob, grep and read it would need to find what
the user already knows. What the agent adds to the context on its own is accounted
for: one line per reference with its characters and estimated tokens, a total, and
an ``injected`` event in the session log. The injected text is part of the user
message, so the log holds exactly what was sent, and a resumed session sends it again
as it was, not as the file reads now.

* ``parse``  - which ``@`` in a message are references (``find_refs``);
* ``inject`` - what each reference becomes (``inject``), capped, kept inside the workdir;
* ``fetch``  - ``@url``: the page, with a time limit;
* ``bill``   - the token estimate and the lines and event that account for it all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .inject import Injection, compose, inject
from .parse import find_refs


@dataclass
class Expanded:
    """A user message with its references resolved: what to send, and what went in."""

    content: str | list[dict]
    injections: list[Injection]


def expand(text: str, workdir: Path) -> Expanded:
    """The content of the user message for ``text``: the text itself, then every reference's content."""
    injections = [inject(ref, workdir) for ref in find_refs(text)]
    return Expanded(compose(text, injections), injections)
