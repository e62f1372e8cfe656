"""Cut long tool results before they reach the model, and say so.

A 2 MB log pasted into the history costs tokens on every later request and can
overflow the context window. Keeping the start and the end (where errors and
summaries usually are) and saying clearly how much was cut lets the model ask for
the middle if it needs it. A cut you do not declare is a lie: the model takes the
part for the whole.
"""

from __future__ import annotations

MAX_RESULT_CHARS = 8000


def truncate(text: str, limit: int = MAX_RESULT_CHARS) -> tuple[str, bool]:
    """Return ``(text, False)`` if it fits, else at most ``limit`` characters - head,
    a marker naming what was cut, tail - and True."""
    if len(text) <= limit:
        return text, False
    marker = f"\n[... {{cut}} of {len(text)} characters cut ...]\n"
    room = max(0, limit - len(marker.format(cut=len(text))))
    head, tail = room - room // 2, room // 2
    cut = len(text) - head - tail
    return text[:head] + marker.format(cut=cut) + (text[-tail:] if tail else ""), True
