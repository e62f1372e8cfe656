"""What the tiers grade: the quick tier grades only the labs its tests wait for, and `quick`
followed by `rest` is the full suite, each test once.

Collection only (`--collect-only` in a child pytest): nothing is graded here."""

from __future__ import annotations

import subprocess
import sys

from tests.checks import corpus
from tests.checks.conftest import labs_wanted

KIT = corpus.KIT
CORPUS_TESTS = "tests/checks/test_corpus.py"


class _Item:
    """A collected test as labs_wanted sees it."""

    def __init__(self, lab_name, fixturenames):
        self.callspec = type("Callspec", (), {"params": {"lab_name": lab_name}})()
        self.fixturenames = fixturenames
        self.function = None


def test_a_test_that_only_reads_a_corpus_entry_grades_nothing():
    reads = _Item("day-07/mutants/replay_crashes", ["lab_name"])
    grades = _Item("day-07/mutants/fork_notes_parent", ["gradings", "lab_name"])
    assert labs_wanted([reads]) == []
    assert labs_wanted([reads, grades]) == ["day-07/mutants/fork_notes_parent"]


def collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           CORPUS_TESTS, *args], cwd=KIT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_quick_and_rest_are_the_full_tier_each_test_once():
    quick, rest, full = collected(), collected("--tier", "rest"), collected("--tier", "full")
    assert not set(quick) & set(rest)
    assert sorted(quick + rest) == sorted(full)
    sample = corpus.quick_sample()
    graded_in_quick = {line.split("[", 1)[1].rstrip("]") for line in quick
                       if "::test_mutant_fails_exactly_its_checks[" in line}
    assert graded_in_quick and graded_in_quick <= sample
