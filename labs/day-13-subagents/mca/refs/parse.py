"""Which ``@`` in a message are references.

People type ``@`` for other things too: an e-mail address (``ada@example.com``), a
handle written twice to mean a literal ``@`` (``@@home``), a decorator or a path quoted
in code (`` `@property` ``). Turning those into references reads files nobody asked for
and costs tokens for nothing, so the rule is narrow:

* a reference starts with ``@`` at the start of the message or after whitespace or an
  opening bracket ``(`` ``[`` ``{`` (so ``ada@example.com`` is not one);
* what follows the ``@`` runs to the next whitespace; it must not start with another
  ``@`` (``@@x`` is not a reference, and neither is the ``@x`` inside it);
* punctuation that ends a sentence or a bracket is not part of it: ``@calc.py,`` and
  ``(see @calc.py)`` name ``calc.py``; a directory's ``/`` stays (``@src/``);
* nothing inside back-quotes counts: a code span (`` `...` ``, any number of
  back-quotes) or a fenced block (```` ``` ````).

Each reference is returned once, in the order of its first appearance.
"""

from __future__ import annotations

import re

TRAILING = ".,;:!?)]}>'\""   # taken off the end of a reference: it ends the sentence, not the name
OPENERS = "([{"              # an @ right after one of these still starts a reference
CODE = re.compile(r"(`+)(?:.|\n)*?\1")  # a code span or a fenced block: the same run of back-quotes closes it


def find_refs(text: str) -> list[str]:
    """The references in ``text`` (without their ``@``), each once, in order."""
    plain = CODE.sub(lambda m: " " * len(m.group(0)), text)  # blank out code, keep the offsets
    found: list[str] = []
    # Every @ is looked at (the look-ahead takes nothing): in ada@home(@calc.py) the e-mail's
    # match must not swallow the reference that an opening bracket starts after it.
    for match in re.finditer(r"@(?=(\S+))", plain):
        start = match.start()
        if start > 0 and not (plain[start - 1].isspace() or plain[start - 1] in OPENERS):
            continue  # ada@example.com, or the second @ of @@x
        target = match.group(1).rstrip(TRAILING)
        if not target or target.startswith("@"):
            continue  # a lone @, or @@x
        if target not in found:
            found.append(target)
    return found
