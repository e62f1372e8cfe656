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

def looks_secret(text: str, known: tuple[str, ...] | list[str] = ()) -> str | None:
    # TODO(E3): return why the text must not be kept (each shape in the docstring, and
    # every value in `known`), or None. Until then nothing is refused.
    return None
