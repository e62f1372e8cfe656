"""Is this text a secret? A memory rides along in every later session's first request,
so a key written into one is sent to the model again and again, and sits in a file in
the user's home. Such a text is refused before anything is written.

What counts (each shape starts a word: nothing but a letter-or-digit-free character
or the start of the text before it):

* ``sk-`` then 20 or more letters, digits, ``-`` or ``_`` (OpenAI, Anthropic and others);
* ``AKIA`` then 16 capital letters or digits (an AWS access key id);
* ``ghp_``, ``gho_``, ``ghu_``, ``ghs_`` or ``ghr_`` then 36 letters or digits, or
  ``github_pat_`` then 22 or more letters, digits or ``_`` (GitHub tokens);
* ``xoxb-``, ``xoxa-``, ``xoxp-``, ``xoxr-`` or ``xoxs-`` then 10 or more letters, digits
  or ``-`` (Slack tokens);
* a JSON web token: three dot-separated base64url parts, the first two starting ``eyJ``,
  each at least 8 characters;
* a private key block: ``-----BEGIN ... PRIVATE KEY-----``;
* ``password``, ``passwd`` or ``pwd`` (any case) followed by ``=`` or ``:`` and a value;
* the value of ``MCA_API_KEY`` (or any value passed in ``known``) anywhere in the text.

What does not: the names alone (``MCA_API_KEY``, "the password policy", ``sk-learn``),
a prefix too short to be a key, a commit hash, a UUID, a public key or certificate.
"""

from __future__ import annotations

import re

START = r"(?<![A-Za-z0-9])"
SHAPES = [
    ("an API key (sk-...)", re.compile(START + r"sk-[A-Za-z0-9_-]{20,}")),
    ("an AWS access key id (AKIA...)", re.compile(START + r"AKIA[0-9A-Z]{16}(?![0-9A-Z])")),
    ("a GitHub token", re.compile(START + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("a Slack token", re.compile(START + r"xox[abprs]-[A-Za-z0-9-]{10,}")),
    ("a JSON web token", re.compile(START + r"eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}")),
    ("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    ("a password", re.compile(START + r"(?:password|passwd|pwd)\s*[=:]\s*\S", re.IGNORECASE)),
]


def looks_secret(text: str, known: tuple[str, ...] | list[str] = ()) -> str | None:
    """Why ``text`` must not be kept (it holds what looks like a secret), or None."""
    for value in known:
        if value and len(value) >= 8 and value in text:
            return "it holds the value of MCA_API_KEY"
    for what, shape in SHAPES:
        if shape.search(text):
            return f"it looks like it holds {what}"
    return None
