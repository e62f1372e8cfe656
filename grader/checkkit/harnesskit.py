"""The harness side of the check kit: what a harness script (grader code that runs in a lab
child, imports the lab and calls one of its functions) uses to call and to report.

`ctx.harness(name)` writes this file beside the script and loads it, as the module
`harnesskit`, before the script's own first line runs. It imports nothing but the
standard library: a lab child sees the lab and Python, never the grader package
(grader/spawn/hermetic.py). A harness reads its job, calls, and reports each answer as
one line of JSON on stdout tagged with its name, so the lab's own prints are never
mistaken for an answer; `ctx.harness_json` / `ctx.harness_answers` read them back.

    from harnesskit import answer, report, run

    def main(job):
        from mca.shout import shout
        for text in job["texts"]:
            report(answer(lambda: {"said": shout(text)}))

    run(main)

An exception the lab raises is data: `{"stub": "NotImplementedError: TODO(E1): ...",
"where": "mca/shout.py, line 9"}` for a stub, `{"raised": ..., "where": ...}` for any
other; one that escapes `main` (the lab would not import) is reported with `"fatal": true`.
"""

import hashlib
import json
import sys
import traceback

NAME = "harness"   # the harness's name, set by the loader ctx.harness writes into the script
PACKAGE = "mca"    # the lab's package, likewise: its frames say where an exception came from


def failure(exc: BaseException) -> dict:
    """An exception as data: a stub (NotImplementedError) or raised, and the lab's line it came from."""
    frames = traceback.extract_tb(exc.__traceback__)
    marker = f"/{PACKAGE}/"
    lab = [f for f in frames if marker in f.filename.replace("\\", "/")]
    if lab:
        where = f"{PACKAGE}/{lab[-1].filename.replace(chr(92), '/').rsplit(marker, 1)[-1]}, line {lab[-1].lineno}"
    else:
        where = "?"
    kind = "stub" if isinstance(exc, NotImplementedError) else "raised"
    return {kind: f"{type(exc).__name__}: {exc}", "where": where}


def failed(answer: object) -> bool:
    """An answer that is a stub or an exception (see `failure`)."""
    return isinstance(answer, dict) and ("stub" in answer or "raised" in answer)


def answer(function, *args, **kwargs) -> dict:
    """What `function(*args, **kwargs)` returned (a dict), or the exception it raised as data.
    Anything is caught, even SystemExit: the lab's code may raise anything."""
    try:
        return function(*args, **kwargs)
    except BaseException as exc:  # noqa: BLE001 - reported, not fatal
        return failure(exc)


def report(found: dict | None = None, /, stream=None, **fields) -> None:
    """One answer: a line of JSON tagged with the harness's name (on stdout, or `stream`)."""
    line = json.dumps({"harness": NAME, **(found or {}), **fields}, ensure_ascii=False, default=repr)
    out = stream or sys.stdout
    out.write(line + "\n")
    out.flush()


def job() -> dict:
    """The job the grader wrote for this run (the script's first argument, a JSON file)."""
    with open(sys.argv[1], encoding="utf-8") as handle:
        return json.load(handle)


def run(main, stream=None) -> None:
    """`main(job())`; an exception that escapes it (the lab would not import, the set-up
    raised) is reported as one answer with `"fatal": true`."""
    try:
        main(job())
    except BaseException as exc:  # noqa: BLE001
        report(failure(exc), stream=stream, fatal=True)


def plain(value, limit: int = 300):
    """A JSON value as it is, anything else as its repr (cut to `limit`), for the message."""
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:limit]


def digest_long(value, limit=100_000):
    """`value` with every string longer than `limit` characters replaced by its sha256 and
    length: an answer holding a line of more than 1 MiB stays under the output cap, and is
    judged as exactly (the grader makes the same digest of what the answer should be)."""
    if isinstance(value, str) and len(value) > limit:
        return {"sha256": hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest(), "chars": len(value)}
    if isinstance(value, list):
        return [digest_long(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: digest_long(item, limit) for key, item in value.items()}
    return value
