"""Grader harness: ask the lab's should_retry and backoff_delay directly.

    python retry.py LAB JOB.json     (the prelude takes LAB)

JOB is {"statuses": [[status or null, transient], ...], "delays": [[attempt, retry_after or null], ...]}.
Each status becomes a GatewayError(status=..., transient=...) handed to should_retry;
each delay pair is handed to backoff_delay. Only these two functions are the
student's; nothing sleeps and nothing reaches the network. One answer:
{"retry": [true/false/{"raised"...}...], "delays": [number/{"raised"...}...]}.
"""
from harnesskit import answer, report, run


def main(job):
    from mca.agent.loop import backoff_delay, should_retry
    from mca.gateway.base import GatewayError

    def retry(status, transient):
        said = should_retry(GatewayError(f"HTTP {status}" if status else "connection failed",
                                         status=status, transient=transient))
        return said if isinstance(said, bool) else {"raised": f"returned {said!r}", "where": "?"}

    def delay(attempt, retry_after):
        value = backoff_delay(attempt, retry_after)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return float(value) if ok else {"raised": f"returned {value!r}", "where": "?"}

    report(retry=[answer(retry, *case) for case in job.get("statuses", [])],
           delays=[answer(delay, *case) for case in job.get("delays", [])])


run(main)
