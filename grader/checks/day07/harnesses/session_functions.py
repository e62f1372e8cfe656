"""Grader harness: call one of the lab's session functions on inputs the grader made.

    python session_functions.py LAB JOB.json     (the prelude takes LAB)

JOB is {"function": NAME, "inputs": [...]}; each input is a log file (read_events) or
a list of events [seq, ts, type, fields] that the harness turns into the lab's own
Event objects (replay, fork_points), or {"sessions", "parent", "at"} (fork_twice: the
lab's fork called twice on one parent back to back, early in a second so that both fall
in the same one, with the first child's bytes and inode before and after the second). So a check of replay never depends on the
lab's reader, and the other way round. One answer per input.
"""
import json
from pathlib import Path

from harnesskit import answer, digest_long, failure, report, run


def plain(value):
    """A JSON value as it is, anything else as its repr (a set, an object) for the message."""
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return {"repr": repr(value)[:300], "type": type(value).__name__}


def events_of(item):
    """The lab's Event objects for [seq, ts, type, fields] rows; {"rows": ..., "once": true}
    gives them as an iterator that can be walked once (the functions take any iterable)."""
    from mca.session.log import Event
    rows = item["rows"] if isinstance(item, dict) else item
    events = [Event(seq, ts, kind, fields) for seq, ts, kind, fields in rows]
    return iter(events) if isinstance(item, dict) and item.get("once") else events


def read(path):
    from mca.session.log import Event, read_events
    result = read_events(path)
    odd = [e for e in result.events if not isinstance(e, Event)]
    if odd:  # the events must be the lab's Event objects, as parse_line makes them
        shown = {"repr": repr(odd[0])[:200], "type": f"list holding a {type(odd[0]).__name__}, not an Event:"}
        return {"events": shown, "stopped_at": plain(result.stopped_at), "reason": plain(result.reason)}
    rows = [[e.seq, e.type, e.fields] for e in result.events]
    return {"events": digest_long(plain(rows)), "stopped_at": plain(result.stopped_at), "reason": plain(result.reason)}


def read_versions(item):
    """Write each version's bytes over the same file in place (same path, same inode), as a
    log grows while the agent runs, and read it after each: a reader must read the file as
    it is now, never an answer it kept from before."""
    path = Path(item["path"])
    answers = []
    for version in item["versions"]:
        data = Path(version).read_bytes()
        with open(path, "r+b" if path.exists() else "wb") as handle:
            handle.write(data)
            handle.truncate()
        try:
            answer = read(str(path))
        except BaseException as exc:
            answer = failure(exc)
        answer["unchanged"] = path.read_bytes() == data
        answers.append(answer)
    return {"versions": answers}


def replay(rows):
    from mca.session.replay import estimate_tokens, replay as rebuild
    result = rebuild(events_of(rows))
    messages = list(result.messages)
    return {"messages": digest_long(plain(messages)), "replayed": plain(result.replayed), "skipped": plain(result.skipped),
            "tokens": estimate_tokens(messages)}


def fork_points(rows):
    from mca.session.fork import fork_points as points
    value = points(events_of(rows))
    return {"points": plain(value), "type": type(value).__name__}


def read_and_replay(path):
    from mca.session.log import read_events
    from mca.session.replay import replay as rebuild
    result = read_events(path)
    rebuilt = rebuild(result.events)
    return {"events": len(result.events), "stopped_at": plain(result.stopped_at),
            "replayed": plain(rebuilt.replayed), "skipped": plain(rebuilt.skipped)}


def fork_twice(item):
    import hashlib
    import os
    import time

    from mca.session.fork import fork

    def stamp(path):
        try:
            return {"sha": hashlib.sha256(path.read_bytes()).hexdigest(), "inode": os.stat(path).st_ino}
        except OSError as exc:
            return {"missing": type(exc).__name__}

    sessions = Path(item["sessions"])
    if time.time() % 1 > 0.5:
        time.sleep(1.02 - time.time() % 1)  # two calls of a few ms each, early in a second: the same second
    began = time.time()
    try:
        first = fork(sessions, item["parent"], item["at"])
    except BaseException as exc:
        return {"first": failure(exc)}
    first_path = sessions / f"{first}.jsonl"
    answer = {"first": plain(first), "first_before": stamp(first_path)}
    try:
        answer["second"] = plain(fork(sessions, item["parent"], item["at"]))
    except BaseException as exc:
        answer["second"] = failure(exc)
    answer["same_second"] = int(began) == int(time.time())
    answer["first_after"] = stamp(first_path)
    if isinstance(answer["second"], str):
        answer["second_file"] = stamp(sessions / f"{answer['second']}.jsonl")
    answer["files"] = sorted(p.name for p in sessions.iterdir())
    return answer


FUNCTIONS = {"fork_twice": fork_twice, "read_events": read, "read_versions": read_versions, "replay": replay, "fork_points": fork_points,
             "read_and_replay": read_and_replay}

def main(job):
    function = FUNCTIONS[job["function"]]
    for item in job["inputs"]:
        report(answer(function, item))


run(main)
