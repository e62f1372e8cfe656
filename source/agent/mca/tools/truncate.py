"""Cut long tool results before they reach the model.

A 2 MB log pasted into the history costs tokens on every later request and can
overflow the context window. Keeping the start and the end (where errors and
summaries usually are) and saying clearly how much was cut lets the model ask for
the middle if it needs it.
"""

from __future__ import annotations

MAX_RESULT_CHARS = 8000


def truncate(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, bool]:
    """Return ``(text, False)`` if it fits, else a head + marker + tail and True."""
    if len(text) <= limit:
        return text, False
    keep = limit // 2
    cut = len(text) - 2 * keep
    marker = f"\n[... {cut} characters cut: the result was {len(text)} characters long ...]\n"
    return text[:keep] + marker + text[-keep:], True
