"""One grading run per hostile lab, several at a time, shared by the tests.

Every run grades with a copy of the kit (so a concurrent edit of the real grader,
or a hostile write into "the grader", never touches the repository); labs whose
code writes into the grader get a copy of their own. The runs mostly wait on
their children's time limits, so three run at once even on two cores.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.hostile import hostile

# Slowest first, so the long runs overlap the short ones.
SLOW_FIRST = ("main-blocks-on-input", "hang-read-events", "sleep-in-fork", "flood-stdout")
WORKERS = 3

class Runs:
    def __init__(self, base: Path):
        self.base = base
        self.cases = {case.name: case for case in hostile.cases()}
        self.pool = ThreadPoolExecutor(max_workers=WORKERS)
        self.futures: dict[str, Future] = {}
        self._shared_kit: Future | None = None

    def shared_kit(self) -> Path:
        if self._shared_kit is None:
            self._shared_kit = self.pool.submit(hostile.copy_kit, self.base / "shared" / hostile.KIT_GUARD)
        return self._shared_kit.result()

    def _grade(self, key: str) -> hostile.Run:
        """`name`: the case as it is; `ci:name` the same with --ci, `sandbox:name` with --sandbox,
        `hermetic:name` with each lab child in a view of its own (the others: without)."""
        mode, _, name = key.rpartition(":")
        case = self.cases[name]
        kit = None if case.kit_copy else self.shared_kit()
        extra = {"": (), "ci": ("--ci",), "sandbox": ("--sandbox",), "hermetic": ()}[mode]
        return hostile.grade(case, self.base, kit=kit, extra=extra, label=key.replace(":", "-"),
                             hermetic=mode == "hermetic")

    def submit(self, key: str, fn, *args) -> Future:
        if key not in self.futures:
            self.futures[key] = self.pool.submit(fn, *args)
        return self.futures[key]

    def get(self, name: str) -> hostile.Run:
        return self.submit(name, self._grade, name).result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="session")
def runs(request, tmp_path_factory) -> Runs:
    graded = Runs(tmp_path_factory.mktemp("hostile"))
    graded.shared_kit()
    wanted = []
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if callspec and "case_name" in callspec.params:
            wanted.append(callspec.params["case_name"])
        wanted += getattr(getattr(item, "function", None), "cases_used", [])
    wanted = sorted(set(wanted), key=lambda n: (SLOW_FIRST.index(n) if n in SLOW_FIRST else len(SLOW_FIRST), n))
    for name in wanted:
        graded.submit(name, graded._grade, name)
    yield graded
    graded.close()
