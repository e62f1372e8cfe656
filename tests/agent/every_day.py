"""The other days' runs: one child ``python -m pytest tests/agent`` per day 1..6.

conftest.py starts them right after collection, so they run while this process tests
day 7, and moves the tests that wait for them (test_every_day.py) to the end. Each
child runs in a session of its own, so nothing a child's agent kills can reach this
process. The children leave out the plugins these tests do not use (pytest-httpserver,
hypothesis's): loading them is most of a child's start-up.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from .days import LAST_DAY, ROOT

HERE = Path(__file__).resolve().parent
CHILD_DAYS = range(1, LAST_DAY)
CHILD_TIMEOUT = 300  # seconds: a generous bound for a child that hangs; a day takes a few seconds


class Child:
    """One day's pytest, started at once and waited for on demand."""

    def __init__(self, day: int, base: Path) -> None:
        self.day = day
        self.xml = base / f"day-{day}.xml"
        self.out = base / f"day-{day}.out"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MCA_", "PYTEST_"))}
        env.update(MCA_TEST_DAY=str(day), PYTHONDONTWRITEBYTECODE="1")
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pytest", str(HERE), "-p", "no:cacheprovider", "-p", "no:pytest_httpserver",
                 "-p", "no:hypothesispytest", "-q", "-rfE", "--basetemp", str(base / f"day-{day}"),
                 "--junitxml", str(self.xml)],
                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)

    def wait(self) -> tuple[int, str]:
        try:
            code = self.proc.wait(timeout=CHILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.stop()
            code = -1
        return code, self.out.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the child's own session, never ours
            self.proc.wait()

    def counts(self) -> dict[str, int]:
        suite = ET.parse(self.xml).getroot()
        suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
        counts = {key: int(suite.get(key, 0)) for key in ("tests", "failures", "errors", "skipped")}
        counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
        return counts


class Children:
    """All the children of one test session, in a temp dir removed at the end."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="mca-every-day-"))
        self.by_day = {day: Child(day, self.base) for day in CHILD_DAYS}

    def close(self) -> None:
        for child in self.by_day.values():
            child.stop()
        shutil.rmtree(self.base, ignore_errors=True)
