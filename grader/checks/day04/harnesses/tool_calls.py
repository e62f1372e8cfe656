"""Grader harness: make tool calls through the lab's ToolRegistry, as the agent loop does.

    python tool_calls.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir": DIR, "timeout": SECONDS, "umask": INT or null, "calls": [[NAME, ARGS] or [NAME, ARGS, TIMEOUT], ...],
"watch": PATH or null, "deadline": SECONDS}.
Each call goes through `default_tools(workdir, command_timeout=...)`.run (the call's own
timeout, else the job's), so what comes
back is what the model would read: {"ok", "content", "truncated"}, or, when the call
raised out of the registry (the turn would crash), {"raised", "where"}; a call that does
not come back within the deadline is {"hung"} and ends the run (the calls after it are
{"hung"} too); with a watched file, each entry also has "watch": its inode, mtime, size and
sha256 after the call. One answer per call.
"""
import hashlib
import os
import sys
import threading
import time
from pathlib import Path

from harnesskit import failure, report, run


def stamp(path):
    try:
        st = os.stat(path)
        return {"inode": st.st_ino, "mtime_ns": st.st_mtime_ns, "size": st.st_size,
                "sha": hashlib.sha256(path.read_bytes()).hexdigest()}
    except OSError:
        return None


def main(job):
    if job.get("umask") is not None:
        os.umask(job["umask"])
    from mca.tools.registry import default_tools

    registries = {}
    for number, (name, args, *limit) in enumerate(job["calls"]):
        limit = limit[0] if limit else job.get("timeout", 10)
        if limit not in registries:
            registries[limit] = default_tools(Path(job["workdir"]), command_timeout=limit)
        registry = registries[limit]
        box = {}

        def call():
            try:
                result = registry.run(name, args)
                box["entry"] = {"ok": bool(result.ok), "content": str(result.content),
                                "truncated": bool(result.truncated)}
            except BaseException as exc:  # the lab's code may raise anything, even SystemExit
                box["entry"] = failure(exc)

        started = time.monotonic()
        thread = threading.Thread(target=call, daemon=True)
        thread.start()
        thread.join(job["deadline"])
        entry = box.get("entry") or {"hung": job["deadline"]}
        entry["seconds"] = round(time.monotonic() - started, 3)
        if job.get("watch"):
            entry["watch"] = stamp(Path(job["watch"]))
        report(entry)
        if "hung" in entry:  # the call still runs on its thread: the calls after it are not made
            for _ in job["calls"][number + 1:]:
                report(hung=job["deadline"])
            break


run(main)
sys.stdout.flush()
os._exit(0)  # a call that never came back must not keep this process waiting
