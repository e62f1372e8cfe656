"""The message catalogue: every sentence a check says to a student lives in TOML.

A day's folder holds `messages.toml` (`[section] name = "... {placeholder} ..."`);
the kit's own sentences (about children: a crash, a stub, a traceback) are in
grader/checkkit/messages.toml. A day's catalogue may use a section of the kit's
name to say things its own way. Keeping the text in data makes a second language a
second copy of the files, not a change to the code: each catalogue's translation sits
beside it (`messages.zh.toml`) and is asked first in that language; a key it lacks, or
one whose placeholders do not fit, is said in English (grader/i18n.py).
"""

from __future__ import annotations

from pathlib import Path

from grader import i18n

KIT_MESSAGES = Path(__file__).with_name("messages.toml")


class Messages:
    """Sentences by `section.name`, the day's first, then the kit's."""

    def __init__(self, *paths: Path, lang: str | None = None):
        """`paths`: source-language catalogues, most specific first; in another language
        each is preceded by its translation (the day's, then the day's English, then the kit's)."""
        self.lang = lang or i18n.language()
        chain = i18n.catalogue_chain(*paths, lang=self.lang)
        self.paths = [p for p in chain if p.is_file()]
        self._tables = [i18n.read_toml(p) for p in self.paths]

    @classmethod
    def for_day(cls, checks_dir: Path, lang: str | None = None) -> "Messages":
        return cls(Path(checks_dir) / "messages.toml", KIT_MESSAGES, lang=lang)

    def __call__(self, key: str, /, **values) -> str:
        text = i18n.lookup(self._tables, key, values)
        if text is None:
            where = ", ".join(map(str, self.paths)) or "no catalogue"
            raise KeyError(f"no message {key!r} in {where}")
        return text


def kit_say(key: str, /, **values) -> str:
    """One of the kit's own sentences (grader/checkkit/messages.toml), in the language of
    the run: for helpers that have no `ctx.say` at hand (grader/checkkit/sessionlog.py)."""
    return Messages(KIT_MESSAGES)(key, **values)
