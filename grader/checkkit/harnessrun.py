"""The grader side of a harness: write its job, run it in a lab child, read its answers back.

A harness script (a day's `harnesses/<name>.py`, or code a check passes) is written into a
scratch dir together with the harness side of the kit (grader/checkkit/harnesskit.py),
which the script's first lines load by path: the child gets that one file of the kit,
never the grader package. Its answers are the lines of JSON tagged with its name; a
child that left none (or too few) "died", an answer with "stub" or "raised" is said in
the kit's words (messages.toml `[harness]`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from grader.checkkit.failures import CheckFailed


# Names as a person gives their folders and scripts: two ordinary words, nothing that reads as a
# temporary directory (`tmpXXXXXXXX`), a check, a day or the grader.
_FIRST = ("old", "new", "my", "test", "draft", "small", "quick", "main", "local", "spare", "next", "last",
          "home", "work", "side", "plain", "early", "late", "mini", "tiny", "big", "first", "second", "third",
          "fresh", "clean", "other", "extra", "shared", "simple", "daily", "weekly", "blue", "green", "red",
          "gray", "north", "south", "east", "west", "summer", "winter", "spring", "autumn", "alpha", "beta",
          "demo", "sample", "basic", "mock", "dev", "try", "play", "study", "class", "lab", "code", "web",
          "tool", "data", "note", "text", "book", "list")
_SECOND = ("notes", "calc", "project", "app", "tools", "scripts", "stuff", "files", "site", "blog", "api",
           "cli", "bot", "game", "shop", "todo", "chat", "docs", "repo", "service", "parser", "server", "client",
           "widget", "helper", "utils", "sketch", "ideas", "homework", "exercises", "tasks", "journal",
           "budget", "recipes", "photos", "music", "garden", "library", "archive", "backup", "inbox", "plans",
           "report", "thesis", "slides", "demo", "playground", "sandbox", "experiments", "practice", "course",
           "lessons", "drafts", "snippets", "config", "build", "deploy", "agent", "crawler", "timer", "tracker",
           "viewer", "editor", "reader")


def neutral(name: str) -> str:
    """A file or folder name for `name` that says nothing of it, the same in every run: two
    ordinary words and a number, as in `quick-notes-42` (context.neutral, without the import
    cycle). Two checks of a day share a name about once in 370,000 pairs; `ctx.tmp` suffixes one."""
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return f"{_FIRST[digest[0] % len(_FIRST)]}-{_SECOND[digest[1] % len(_SECOND)]}-{10 + digest[2] % 90}"

KIT_NAME = "harnesskit"
# The file names a harness child is handed say nothing of the grader or of the check: the kit's
# side is `util.py` on disk (imported as `harnesskit`), the script and its job have neutral names.
KIT_FILE = "util.py"
# Read when the grader starts, before any lab code runs (like the day's fixtures).
KIT_SOURCE = Path(__file__).with_name(f"{KIT_NAME}.py").read_text(encoding="utf-8")


def loader(name: str, package: str) -> str:
    """The lines that load the kit's harness side from beside the script, named `harnesskit`,
    ahead of anything the lab could put on the path."""
    return (f"import importlib.util as _util, os as _os\n"
            f"_spec = _util.spec_from_file_location({KIT_NAME!r}, _os.path.join(_os.path.dirname("
            f"_os.path.abspath(__file__)), {KIT_FILE!r}))\n"
            f"sys.modules[{KIT_NAME!r}] = _kit = _util.module_from_spec(_spec)\n"
            f"_spec.loader.exec_module(_kit)\n"
            f"_kit.NAME, _kit.PACKAGE = {name!r}, {package!r}\n"
            f"del _util, _os, _spec, _kit\n")


def write_kit(directory: Path) -> None:
    (Path(directory) / KIT_FILE).write_text(KIT_SOURCE, encoding="utf-8")


def tagged(text: str, name: str) -> list[dict]:
    """The answers of harness `name` in `text`, in order: its lines that are JSON objects tagged with it."""
    found = []
    for line in text.split("\n"):  # not splitlines(): the lab's own prints may hold U+2028
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("harness") == name:
            found.append(value)
    return found


def problem(say, answer: dict, calls: str, on=None) -> CheckFailed | None:
    """The CheckFailed for an answer that is a stub or an exception (None for any other answer);
    `on`, what it was given: a phrase, or a function of the answer that gives one."""
    on = on(answer) if callable(on) else on
    where = answer.get("where", "?")
    if "stub" in answer:
        return CheckFailed(say("harness.stub", calls=calls, stub=answer["stub"], where=where))
    if "raised" in answer:
        if on is None:
            return CheckFailed(say("harness.raised", calls=calls, error=answer["raised"], where=where))
        return CheckFailed(say("harness.raised_on", calls=calls, error=answer["raised"], where=where, on=on))
    return None


def run(ctx, name: str, job: dict, *, calls: str, label: str | None, script: Path | None, code: str | None,
        timeout: float, **options) -> tuple[list[dict], object]:
    """Write `job` beside the script (`label`.json), run it, and return its answers and the
    child. An answer marked fatal (nothing could be called) fails the check at once."""
    script = script or ctx.harness(name, code)
    path = script.parent / f"{neutral(label or name)}.json"
    path.write_text(ctx.runner.in_view(json.dumps(job, ensure_ascii=False)), encoding="utf-8")
    result = ctx.run_harness(script, str(path), timeout=timeout, **options)
    answers = tagged(result.stdout, name)
    fatal = next((problem(ctx.say, a, calls) for a in answers if a.get("fatal")), None)
    if fatal:
        raise fatal
    return answers, result
