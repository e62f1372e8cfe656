"""Grader harness: build one request per base URL with the lab's build_request, and send it.

    python build_request.py LAB JOB.json      (the prelude takes LAB)

JOB is {"bases": [...], "key", "model", "messages"}. Each request the lab builds is
sent with urllib to the grader's fake server, which records what arrived: the method,
the path, the headers and the body as a real server reads them. One answer per base
URL, in order.
"""
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from harnesskit import failure, report, run


def send(job, base):
    found = {"base": base}
    try:
        from mca.gateway.openai_compat import build_request

        request = build_request(base, job["key"], job["model"], job["messages"])
    except BaseException as exc:  # the lab's code may raise anything, even SystemExit
        return {**found, **failure(exc)}
    found["url"] = str(getattr(request, "full_url", request))
    if urlsplit(found["url"]).netloc != urlsplit(base).netloc:  # never send anything off this machine
        return {**found, "elsewhere": True}
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            found["status"] = response.status
    except urllib.error.HTTPError as exc:
        found["status"] = exc.code
    except BaseException as exc:  # not sent at all: a bad URL, a body that is not bytes, ...
        found["unsent"] = f"{type(exc).__name__}: {exc}"
    return found


run(lambda job: [report(send(job, base)) for base in job["bases"]])
