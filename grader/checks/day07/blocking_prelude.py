# Prepended to the sample workspace's test_calc.py by the day-07 checks.
"""The sample tests, made to pause: the grader needs the agent to be in the middle
of a tool call while it looks at the log (checks written-as-it-happens and
dangling-tool-call).

When TESTS_STARTED_FILE names a file, loading this module creates that file
(the signal the grader waits for) and then waits until the grader kills the
process group, or until a file with the same name plus ".release" appears, or
30 seconds pass, whichever comes first. Without the variable these are the
ordinary tests.
"""

import os
import time
import unittest


_signal = os.environ.get("TESTS_STARTED_FILE")
if _signal:
    with open(_signal, "w", encoding="utf-8") as handle:
        handle.write(str(os.getpid()))
    _deadline = time.monotonic() + 30
    while time.monotonic() < _deadline and not os.path.exists(_signal + ".release"):
        time.sleep(0.02)

