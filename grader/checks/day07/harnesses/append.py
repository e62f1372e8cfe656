"""Grader harness: how many bytes does one append to a long log write?

    python append.py LAB JOB.json     (the prelude takes LAB)

JOB is {"log": LOG, "last_seq": N}. Counts the process's written bytes (/proc/self/io
wchar) around one provided SessionLog.append; one answer: {"written": N} (or
{"skip": true} without /proc).
"""
import os
from pathlib import Path

from harnesskit import report, run


def wchar():
    with open("/proc/self/io", "rb") as handle:
        for line in handle:
            if line.startswith(b"wchar:"):
                return int(line.split()[1])


def main(job):
    if not os.path.exists("/proc/self/io"):
        report(skip=True)
        return
    from mca.session.log import SessionLog

    log = SessionLog.open_append(Path(job["log"]), job["last_seq"])
    before = wchar()
    log.append("usage", input_tokens=1, output_tokens=1)
    after = wchar()
    log.close()
    report(written=after - before)


run(main)
