"""`ctx`, what every check receives: the lab to run, scratch dirs, the run's seed.

Checks never start a process themselves: `ctx.run_agent(...)`, `ctx.start_agent(...)`
and `ctx.run_harness(...)` start the lab's code isolated (grader/spawn/lab.py) and
record each child for the reproduce lines of `--keep`. Inputs a check generates come
from `ctx.rng(name)`: a random generator seeded from the run's seed and the name, so
`grader check DAY --seed N` gives every check exactly the same inputs again, with or
without `--only`.
"""

from __future__ import annotations

import random
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit import children, harnessrun
from grader.checkkit.failures import CheckFailed
from grader.checkkit.messages import Messages
from grader.course import Course, Day
from grader.spawn import Child, ChildResult, LabRunner, run, scaled

TURN_TIMEOUT = 30   # seconds for one agent turn with the mock; it needs well under one
TOOL_TIMEOUT = 10   # seconds for a quick command (`log inspect`, a harness): a stuck one must not cost minutes


class AgentSilent(Exception):
    """The agent's entry point did not answer `--help` before the checks (grader/engine/probe.py,
    `Probe`): a check that runs the agent reports this cause instead of starting it.
    Not a ChildTimeout, so no check mistakes it for a child it started and timed out."""


def neutral(name: str) -> str:
    """The name of a scratch directory for a check or a check's `name`: the same in every
    run, serial or side by side, and saying nothing of the check (a lab must not learn from
    its working directory which check is looking, nor that a grader made it)."""
    return harnessrun.neutral(name)


@dataclass
class CheckContext:
    lab: Path            # the copy of the student's lab being graded (never the lab itself)
    day: Day
    course: Course
    fixtures: Path       # a copy of the day's checks folder, taken before any student code ran
    sample: Path | None  # a copy of the course's sample workspace
    keep: bool           # --keep: scratch dirs survive the run
    run_root: Path       # every scratch dir of this run lives under it
    seed: int
    runner: LabRunner
    say: Messages
    current: str | None = None  # the check running now: its scratch dirs are under run_root/neutral(its id)
    silent: str | None = None   # why the agent will not answer (set before the checks), if so
    _used: set[str] = field(default_factory=set, repr=False)
    _children: list[ChildResult] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.runner.on_finish = self._record

    # -- scratch space and inputs --------------------------------------------------

    def tmp(self, name: str) -> Path:
        """A fresh, empty scratch directory for `name` (`neutral(name)`, suffixed if taken), under a
        directory of the running check (`neutral`): the same path whatever ran before it, in
        a serial run or beside other checks (grader/engine/parallel.py)."""
        safe = neutral(name)  # the check's own name for it stays out of every path a child is given
        base = self.run_root / neutral(self.current) if self.current else self.run_root
        candidate, number = safe, 1
        while str(base / candidate) in self._used or (base / candidate).exists():
            number += 1
            candidate = f"{safe}-{number}"
        path = base / candidate
        self._used.add(str(path))
        path.mkdir(parents=True)
        return path

    def rng(self, name: str) -> random.Random:
        """Random inputs for `name`, the same for the same seed (a str seed hashes stably)."""
        return random.Random(f"{self.seed}/{self.day.id}/{name}")

    def workspace(self, name: str) -> Path:
        """A scratch dir holding a fresh copy of the sample workspace; returns the copy."""
        if self.sample is None:
            raise RuntimeError("the course has no sample workspace (course.toml [course] workspace)")
        target = self.tmp(name) / "workspace"
        shutil.copytree(self.sample, target)
        return target

    # -- the lab's code ------------------------------------------------------------

    def run_agent(self, *args: str, cwd: Path, timeout: float = TURN_TIMEOUT, **options) -> ChildResult:
        if self.silent:
            raise AgentSilent(self.silent)
        return self.runner.run_agent(*args, cwd=cwd, timeout=timeout, **options)

    def start_agent(self, *args: str, cwd: Path, **options) -> Child:
        if self.silent:
            raise AgentSilent(self.silent)
        return self.runner.start_agent(*args, cwd=cwd, **options)

    def in_view(self, text: str) -> str:
        """`text` (a job file's JSON, a path) as a lab child sees it: in a hermetic run the scratch
        root has another path in the child's view (grader/spawn/hermetic.py, `PathMap`). What a
        child prints comes back in the grader's paths by itself; a file the check writes for the
        child to read holding paths needs this."""
        return self.runner.in_view(text)

    def is_agent(self, result: ChildResult) -> bool:
        """The child ran the agent's entry point (`python -m <package> ...`), not a harness or tool."""
        shown = result.shown or ""
        return shown == f"python -m {self.course.agent.package}" or \
            shown.startswith(f"python -m {self.course.agent.package} ")

    def harness(self, name: str, code: str | None = None) -> Path:
        """A harness script (grader code that imports the lab) in a scratch dir: `code`, or
        the day's own `harnesses/<name>.py`; beside it the kit's harness side, which the
        script can import as `harnesskit` (grader/checkkit/harnesskit.py)."""
        if code is None:
            code = (self.fixtures / "harnesses" / f"{name}.py").read_text(encoding="utf-8")
        directory = self.tmp(f"harness-{name}")
        harnessrun.write_kit(directory)
        return self.runner.write_harness(directory, neutral(f"script-{name}"),
                                         harnessrun.loader(name, self.course.agent.package) + code)

    def harness_json(self, name: str, job: dict, *, calls: str, on=None, label: str | None = None,
                     script: Path | None = None, code: str | None = None, timeout: float = TOOL_TIMEOUT,
                     **options) -> dict:
        """Run harness `name` on `job` and return its one answer (the last it reported).
        No answer: "died"; a stub or an exception: "stub", "raised" (naming `calls`, what the
        harness called, and `on`, what it was given). `script`: one written before by
        `ctx.harness`, so that a second attempt has the same reproduce line; `label`: the job
        file's name (default `name`)."""
        answers, result = harnessrun.run(self, name, job, calls=calls, label=label, script=script, code=code,
                                         timeout=timeout, **options)
        if not answers:
            raise CheckFailed(self.say("harness.died", calls=calls), seen=self.evidence(result))
        found = harnessrun.problem(self.say, answers[-1], calls, on)
        if found:
            raise found
        return answers[-1]

    def harness_answers(self, name: str, job: dict, *, count: int, calls: str, label: str | None = None,
                        script: Path | None = None, code: str | None = None, timeout: float = TOOL_TIMEOUT,
                        **options) -> list[dict]:
        """Run harness `name` on `job` and return its `count` answers (one per input), in order.
        Fewer: "died" after so many. An answer that is a stub or an exception stays in the
        list, for the check to say with what it was given (`ctx.harness_problem`)."""
        answers, result = harnessrun.run(self, name, job, calls=calls, label=label, script=script, code=code,
                                         timeout=timeout, **options)
        if len(answers) != count:
            raise CheckFailed(self.say("harness.died_after", calls=calls, total=count, done=len(answers)),
                              seen=self.evidence(result))
        return answers

    def harness_problem(self, answer: dict, calls: str, on=None) -> CheckFailed | None:
        """The CheckFailed for an answer that is a stub or an exception, else None."""
        return harnessrun.problem(self.say, answer, calls, on)

    def run_harness(self, script: Path, *args: str, cwd: Path | None = None, timeout: float = TOOL_TIMEOUT,
                    **options) -> ChildResult:
        return self.runner.run_harness(script, *args, cwd=cwd or script.parent, timeout=timeout, **options)

    def start_harness(self, script: Path, *args: str, cwd: Path | None = None, **options) -> Child:
        return self.runner.start_harness(script, *args, cwd=cwd or script.parent, **options)

    def run_process(self, argv, *, cwd: Path, timeout: float = TOOL_TIMEOUT, **options) -> ChildResult:
        """A child that is not the lab's code (a tool of the check's own), recorded like the others."""
        return run(argv, cwd=cwd, timeout=timeout, on_finish=self._record, **options)

    def scaled(self, seconds: float) -> float:
        return scaled(seconds)

    # -- reading children ------------------------------------------------------------

    def evidence(self, result: ChildResult) -> str:
        return children.evidence(result, self.say, self.course.agent.package)

    def expect_ok(self, result: ChildResult, message: str | None = None, code: int = 0) -> None:
        children.expect_exit(result, self.say, self.course.agent.package, code, message)

    def json_of(self, result: ChildResult) -> dict:
        """The JSON object a child printed, after checking it exited 0."""
        self.expect_ok(result)
        return children.last_json_object(result, self.say)

    # -- the record of children, per check ----------------------------------------------

    def _record(self, result: ChildResult) -> None:
        with self._lock:
            self._children.append(result)

    def take_children(self) -> list[ChildResult]:
        """The children finished since the last call, oldest first."""
        with self._lock:
            taken, self._children[:] = list(self._children), []
        return taken
