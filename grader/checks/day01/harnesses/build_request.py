"""Grader harness: build one request per base URL with the lab's build_request, and send it.

    python build_request.py LAB JOB.json      (the prelude takes LAB)

JOB is {"bases": [...], "key", "model", "messages"}. Each request the lab builds is
sent with urllib to the grader's fake server, which records what arrived: the method,
the path, the headers and the body as a real server reads them. One JSON line per
base URL goes to stdout, in order.
"""
import json
import sys
import traceback
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
for base in job["bases"]:
    answer = {"harness": "build_request", "base": base}
    try:
        from mca.gateway.openai_compat import build_request

        request = build_request(base, job["key"], job["model"], job["messages"])
    except BaseException as exc:  # the lab's code may raise anything, even SystemExit
        answer.update(failure(exc))
        print(json.dumps(answer))
        continue
    answer["url"] = str(getattr(request, "full_url", request))
    if urlsplit(answer["url"]).netloc != urlsplit(base).netloc:  # never send anything off this machine
        answer["elsewhere"] = True
        print(json.dumps(answer))
        continue
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            answer["status"] = response.status
    except urllib.error.HTTPError as exc:
        answer["status"] = exc.code
    except BaseException as exc:  # not sent at all: a bad URL, a body that is not bytes, ...
        answer["unsent"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(answer))
