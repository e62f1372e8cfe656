"""Grader harness: ask the lab's should_retry and backoff_delay directly.

    python retry.py LAB JOB.json     (the prelude takes LAB)

JOB is {"statuses": [[status or null, transient], ...], "delays": [[attempt, retry_after or null], ...]}.
Each status becomes a GatewayError(status=..., transient=...) handed to should_retry;
each delay pair is handed to backoff_delay. Only these two functions are the
student's; nothing sleeps and nothing reaches the network. One JSON object goes to
stdout: {"retry": [true/false/{"raised"...}...], "delays": [number/{"raised"...}...]}.
"""
import json
import sys
import traceback
from pathlib import Path


def failure(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    lab = [f for f in frames if "/mca/" in f.filename.replace("\\", "/")]
    where = f"{Path(lab[-1].filename).name}, line {lab[-1].lineno}" if lab else "?"
    return {"stub" if isinstance(exc, NotImplementedError) else "raised": f"{type(exc).__name__}: {exc}",
            "where": where}


def main():
    job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    from mca.agent.loop import backoff_delay, should_retry
    from mca.gateway.base import GatewayError
    retry, delays = [], []
    for status, transient in job.get("statuses", []):
        try:
            answer = should_retry(GatewayError(f"HTTP {status}" if status else "connection failed",
                                               status=status, transient=transient))
            retry.append(answer if isinstance(answer, bool) else {"raised": f"returned {answer!r}", "where": "?"})
        except Exception as exc:  # noqa: BLE001 - reported, not fatal
            retry.append(failure(exc))
    for attempt, retry_after in job.get("delays", []):
        try:
            value = backoff_delay(attempt, retry_after)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            delays.append(float(value) if ok else {"raised": f"returned {value!r}", "where": "?"})
        except Exception as exc:  # noqa: BLE001
            delays.append(failure(exc))
    print(json.dumps({"retry": retry, "delays": delays}))


main()
