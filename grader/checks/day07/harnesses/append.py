"""Grader harness: how many bytes does one append to a long log write?

    python append.py LAB LOG LAST_SEQ     (the prelude takes LAB)

Counts the process's written bytes (/proc/self/io wchar) around one provided
SessionLog.append; prints {"written": N} (or {"skip": true} without /proc).
"""
import json
import os
import sys
from pathlib import Path

if not os.path.exists("/proc/self/io"):
    print(json.dumps({"skip": True}))
    sys.exit(0)


def wchar():
    with open("/proc/self/io", "rb") as handle:
        for line in handle:
            if line.startswith(b"wchar:"):
                return int(line.split()[1])


from mca.session.log import SessionLog  # noqa: E402

log = SessionLog.open_append(Path(sys.argv[1]), int(sys.argv[2]))
before = wchar()
log.append("usage", input_tokens=1, output_tokens=1)
after = wchar()
log.close()
print(json.dumps({"written": after - before}))
