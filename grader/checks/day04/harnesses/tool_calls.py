"""Grader harness: make tool calls through the lab's ToolRegistry, as the agent loop does.

    python tool_calls.py LAB JOB.json      (the prelude takes LAB)

JOB is {"workdir": DIR, "timeout": SECONDS, "umask": INT or null, "calls": [[NAME, ARGS] or [NAME, ARGS, TIMEOUT], ...],
"watch": PATH or null, "deadline": SECONDS}.
Each call goes through `default_tools(workdir, command_timeout=...)`.run (the call's own
timeout, else the job's), so what comes
back is what the model would read: {"ok", "content", "truncated"}, or, when the call
raised out of the registry (the turn would crash), {"raised", "where"}; a call that does
not come back within the deadline is {"hung"} and ends the run; with a watched
file, each entry also has "watch": its inode, mtime, size and sha256 after the call. One JSON line
goes to stdout, last.
"""
import hashlib
import json
import os
import sys
import threading
import time
import traceback
from pathlib import Path


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


def stamp(path):
    try:
        st = os.stat(path)
        return {"inode": st.st_ino, "mtime_ns": st.st_mtime_ns, "size": st.st_size,
                "sha": hashlib.sha256(path.read_bytes()).hexdigest()}
    except OSError:
        return None


job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
if job.get("umask") is not None:
    os.umask(job["umask"])
answer = {"harness": "tool_calls", "results": []}
try:
    from mca.tools.registry import default_tools

    registries = {}
    for name, args, *limit in job["calls"]:
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
        answer["results"].append(entry)
        if "hung" in entry:
            break  # the call still runs on its thread: report now, and leave (os._exit below)
except BaseException as exc:
    answer.update(failure(exc))
print(json.dumps(answer, ensure_ascii=False, default=repr))
sys.stdout.flush()
os._exit(0)  # a call that never came back must not keep this process waiting
