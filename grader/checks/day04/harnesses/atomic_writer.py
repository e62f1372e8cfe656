"""Grader harness: kill a process writing a big file with the lab's write_file, many times.

    python atomic_writer.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir", "path", "old", "versions", "delays", "clean"}; a content is given as
{"unit": TEXT, "count": N} and is TEXT * N. The target first holds `old` (written here,
not by the lab). Then, once per delay, the harness forks a writer that calls
write_file(workdir, {"path", "content"}) in a loop over the versions, SIGKILLs it
`delay` seconds after it said (on a pipe) that its first write begins, and records
what the target holds (sha256 and size).

Before that, the clean part: in its own directory, a new file is written, then
overwritten, then a write that must fail (the path is a directory); the listing after
each says whether a temp file was left behind. One JSON line goes to stdout, last.

The only process this harness signals is the writer it has just forked and not yet
reaped: that PID cannot belong to anyone else.
"""
import hashlib
import json
import os
import select
import signal
import sys
import time
import traceback
from pathlib import Path

job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
workdir = Path(job["workdir"])


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


def content(spec):
    return spec["unit"] * spec["count"]


def seen(path):
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {"missing": True}
    except OSError as exc:
        return {"unreadable": str(exc)}
    return {"sha": hashlib.sha256(data).hexdigest(), "size": len(data)}


answer = {"harness": "atomic_writer", "clean": {}, "rounds": []}
try:
    from mca.tools.files import write_file
except BaseException as exc:
    answer.update(failure(exc))
    print(json.dumps(answer, ensure_ascii=False, default=repr))
    sys.exit(0)

# -- the clean part ------------------------------------------------------------------
clean = job["clean"]
cleandir = workdir / clean["dir"]
steps = [("new", clean["name"], content(clean["first"])), ("overwrite", clean["name"], content(clean["second"])),
         ("failing", clean["blocker"], "x")]
for step, name, text in steps:
    entry = {}
    try:
        write_file(workdir, {"path": f"{clean['dir']}/{name}", "content": text})
        entry["returned"] = True
    except BaseException as exc:
        entry.update(failure(exc))
    entry["listing"] = sorted(os.listdir(cleandir))
    if step != "failing":
        entry.update(seen(cleandir / name))
    answer["clean"][step] = entry
if "raised" in answer["clean"]["new"] or "stub" in answer["clean"]["new"]:
    print(json.dumps(answer, ensure_ascii=False, default=repr))
    sys.exit(0)

# -- the kills -----------------------------------------------------------------------
target = workdir / job["path"]
target.parent.mkdir(parents=True, exist_ok=True)
with open(target, "w", encoding="utf-8", newline="") as handle:
    handle.write(content(job["old"]))
versions = [content(v) for v in job["versions"]]
for number, delay in enumerate(job["delays"]):
    ready, started = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer: nothing but the lab's write_file, round and round
        try:
            os.close(ready)
            os.write(started, b"w")  # the first write begins now
            index = number
            while True:
                write_file(workdir, {"path": job["path"], "content": versions[index % len(versions)]})
                index += 1
        except BaseException:
            pass
        os._exit(3)
    os.close(started)
    select.select([ready], [], [], 10)  # a loaded machine may be slow to run the child at all
    os.close(ready)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)  # our own forked child, not reaped yet: no one else can have this pid
    _, status = os.waitpid(pid, 0)
    entry = seen(target)
    entry["killed"] = os.WIFSIGNALED(status)
    answer["rounds"].append(entry)
answer["listing"] = sorted(os.listdir(target.parent))
print(json.dumps(answer, ensure_ascii=False, default=repr))
