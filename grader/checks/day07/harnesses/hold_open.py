"""Grader harness: keep a session open for writing, as a running agent does, until told.

    python hold_open.py LAB LOG LAST_SEQ     (the prelude takes LAB)

Opens LOG with the provided SessionLog.open_append (its writer lock included), prints
{"open": true}, and holds it until stdin closes. Writes nothing.
"""
import sys
from pathlib import Path

from harnesskit import report

from mca.session.log import SessionLog

log = SessionLog.open_append(Path(sys.argv[1]), int(sys.argv[2]))
report(open=True)
sys.stdin.read()
log.close()
