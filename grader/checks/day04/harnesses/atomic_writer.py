"""Grader harness: kill a process writing a big file with the lab's write_file, many times.

    python atomic_writer.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir", "path", "old", "versions", "phases", "quick", "fresh", "system_temp", "clean"};
a content is given as {"unit": TEXT, "count": N} and is TEXT * N. The target first holds
`old` (written here, not by the lab). One write of the first version is timed; then,
once per phase, the harness forks a writer that calls write_file(workdir, {"path",
"content"}) in a loop over the versions, SIGKILLs it `phase` times that write's time
after it said (on a pipe) that its first write begins, and records what the target
holds (sha256 and size), so the kills fall all along a write, its last step too.
Then, once per `quick` version (small: it fits in a write buffer), a writer whose
os.replace and os.rename kill it the moment a rename onto the target returns: the
target must already hold that version whole ("renamed": false if no rename came), and
"fsynced" says whether the file renamed had been through os.fsync (or os.fdatasync)
before the rename (the hooks note the inode of every descriptor synced).

Then the first write of a NEW file (`fresh`, a name that does not exist yet): once per
`fresh.phases`, a writer that makes that one write, SIGKILLed at phase x the time of one
such write; and once a writer whose open() (builtins, io, os) of the target's own name
for writing kills it the moment the file is opened ("opened_in_place": true), the way a
crash between the open and the last byte would: the target must be missing or whole.

Before that, the clean part: in its own directory, a new file is written, then
overwritten (the inode before and after says whether it was replaced or rewritten in
place), then a write that must fail (the path is a directory); the listing after each
says whether a temp file was left behind. Last, a new file is written while the
system's temp directory (tempfile.tempdir and TMPDIR) is `system_temp`, a directory
that does not exist: a temp file in the target's own directory never notices.
One answer, last.

The only processes this harness signals are the writers it has just forked and not yet
reaped (or that signal themselves): such a PID cannot belong to anyone else.
"""
import hashlib
import os
import select
import signal
import sys
import tempfile
import time
from pathlib import Path

from harnesskit import failure, job as read_job, report

job = read_job()
workdir = Path(job["workdir"])


def content(spec):
    return spec["unit"] * spec["count"]


def seen(path):
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {"missing": True}
    except OSError as exc:
        return {"unreadable": str(exc)}
    return {"sha": hashlib.sha256(data).hexdigest(), "size": len(data), "inode": os.stat(path).st_ino}


answer = {"clean": {}, "rounds": []}
try:
    from mca.tools.files import write_file
except BaseException as exc:
    answer.update(failure(exc))
    report(answer)
    sys.exit(0)

# -- the clean part ------------------------------------------------------------------
clean = job["clean"]
cleandir = workdir / clean["dir"]
steps = [("new", clean["name"], content(clean["first"])), ("overwrite", clean["name"], content(clean["second"])),
         ("failing", clean["blocker"], "x")]
for step, name, text in steps:
    entry = {}
    if step == "overwrite":
        entry["inode_before"] = (seen(cleandir / name)).get("inode")
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
    report(answer)
    sys.exit(0)

entry = {}
tempfile.tempdir, saved = job["system_temp"], os.environ.get("TMPDIR")
os.environ["TMPDIR"] = job["system_temp"]
try:
    write_file(workdir, {"path": f"{clean['dir']}/{clean['elsewhere']}", "content": content(clean["first"])})
    entry["returned"] = True
except BaseException as exc:
    entry.update(failure(exc))
finally:
    tempfile.tempdir = None
    if saved is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = saved
entry.update(seen(cleandir / clean["elsewhere"]))
answer["clean"]["elsewhere"] = entry

# -- the kills -----------------------------------------------------------------------
target = workdir / job["path"]
target.parent.mkdir(parents=True, exist_ok=True)
with open(target, "w", encoding="utf-8", newline="") as handle:
    handle.write(content(job["old"]))
versions = [content(v) for v in job["versions"]]
began = time.monotonic()
try:
    write_file(workdir, {"path": job["path"], "content": versions[-1]})
except BaseException:
    pass
answer["write_seconds"] = round(time.monotonic() - began, 4)
answer["delays"] = [round(phase * max(answer["write_seconds"], 0.002), 4) for phase in job["phases"]]
with open(target, "w", encoding="utf-8", newline="") as handle:
    handle.write(content(job["old"]))
for number, delay in enumerate(answer["delays"]):
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

target_real = os.path.realpath(target)
answer["quick"] = []
for number, spec in enumerate(job["quick"]):
    ready, renamed = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer: one write, killed by its own rename onto the target
        try:
            os.close(ready)
            synced = set()

            def bound_too(real, hook):  # `from os import fsync, replace` in the lab: its own names too
                for module in [m for n, m in list(sys.modules.items()) if n == "mca" or n.startswith("mca.")]:
                    for attr, value in list(vars(module).items()):
                        if value is real:
                            setattr(module, attr, hook)
            for name in ("fsync", "fdatasync"):
                def hooked_sync(fd, *args, real=getattr(os, name), **kwargs):
                    try:
                        st = os.fstat(fd if isinstance(fd, int) else fd.fileno())
                        synced.add((st.st_dev, st.st_ino))
                    except (OSError, TypeError, ValueError, AttributeError):
                        pass
                    return real(fd, *args, **kwargs)
                bound_too(getattr(os, name), hooked_sync)
                setattr(os, name, hooked_sync)
            for name in ("replace", "rename"):
                def hooked(src, dst, *args, real=getattr(os, name), **kwargs):
                    try:
                        st = os.stat(src)
                        was_synced = (st.st_dev, st.st_ino) in synced
                    except (TypeError, ValueError, OSError):
                        was_synced = False
                    real(src, dst, *args, **kwargs)
                    try:
                        onto = os.path.realpath(dst) == target_real
                    except (TypeError, ValueError, OSError):
                        onto = False
                    if onto:
                        os.write(renamed, b"r" if was_synced else b"u")
                        os.kill(os.getpid(), signal.SIGKILL)
                bound_too(getattr(os, name), hooked)
                setattr(os, name, hooked)
            write_file(workdir, {"path": job["path"], "content": content(spec)})
        except BaseException:
            pass
        os._exit(3)
    os.close(renamed)
    came, _, _ = select.select([ready], [], [], 20)
    said = os.read(ready, 1) if came else b""
    entry = {"renamed": said in (b"r", b"u"), "fsynced": said == b"r"}
    os.close(ready)
    if not entry["renamed"]:
        os.kill(pid, signal.SIGKILL)  # our own forked child, not reaped yet
    os.waitpid(pid, 0)
    entry.update(seen(target))
    answer["quick"].append(entry)
answer["listing"] = sorted(os.listdir(target.parent))

# -- the first write of a new file -------------------------------------------------------
fresh = job["fresh"]
fresh_target = workdir / fresh["path"]
fresh_target.parent.mkdir(parents=True, exist_ok=True)
fresh_text = content(fresh["content"])
began = time.monotonic()
try:
    write_file(workdir, {"path": fresh["path"], "content": fresh_text})
except BaseException:
    pass
fresh_seconds = max(time.monotonic() - began, 0.002)
answer["fresh"] = []
for phase in fresh["phases"] + [None]:  # None: killed by its own open of the target
    fresh_target.unlink(missing_ok=True)  # the name is ours, made by the writer just above
    fresh_real = os.path.realpath(fresh_target)
    ready, started = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer: one first write of a new file
        try:
            os.close(ready)
            if phase is None:
                import builtins
                import io

                def writes(mode="r", flags=0):
                    return any(c in str(mode) for c in "wax+") or bool(flags & (os.O_WRONLY | os.O_RDWR))

                def onto(file):
                    try:
                        return not isinstance(file, int) and os.path.realpath(os.fspath(file)) == fresh_real
                    except (TypeError, ValueError, OSError):
                        return False

                def opened():
                    os.write(started, b"o")
                    os.kill(os.getpid(), signal.SIGKILL)

                def hooked_open(file, mode="r", *args, real=builtins.open, **kwargs):
                    handle = real(file, mode, *args, **kwargs)
                    if onto(file) and writes(mode):
                        opened()
                    return handle

                def hooked_os_open(path, flags, *args, real=os.open, **kwargs):
                    fd = real(path, flags, *args, **kwargs)
                    if onto(path) and writes(flags=flags):
                        opened()
                    return fd
                builtins.open = io.open = hooked_open
                os.open = hooked_os_open
            os.write(started, b"w")  # the write begins now
            write_file(workdir, {"path": fresh["path"], "content": fresh_text})
        except BaseException:
            pass
        os._exit(3)
    os.close(started)
    select.select([ready], [], [], 10)
    os.read(ready, 1)  # b"w": the write begins
    said = b""
    if phase is None:
        came, _, _ = select.select([ready], [], [], 20)  # the writer ends: by the hook, or done
        said = os.read(ready, 1) if came else b""
        if not said:
            os.kill(pid, signal.SIGKILL)  # our own forked child, not reaped yet
    else:
        time.sleep(phase * fresh_seconds)
        os.kill(pid, signal.SIGKILL)  # our own forked child, not reaped yet
    os.close(ready)
    _, status = os.waitpid(pid, 0)
    entry = seen(fresh_target)
    entry["opened_in_place"] = phase is None and said == b"o"
    entry["killed"] = os.WIFSIGNALED(status)
    answer["fresh"].append(entry)
report(answer)
