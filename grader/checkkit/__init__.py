"""The check kit: what every day's checks build on (pre-commit's model: a new kind
is one module on shared helpers).

* failures.py  - CheckFailed, short, short_end, differing, expect_equal
* context.py   - CheckContext (`ctx`): run the lab's agent or a harness, scratch dirs, seeded inputs
* children.py  - evidence from a failed child, expected exit status, JSON output
* harnesskit.py - the harness side of a harness (runs in the lab child: call, capture, report)
* harnessrun.py - its grader side (ctx.harness_json, ctx.harness_answers, ctx.harness_problem)
* messages.py  - the message catalogue (student-facing text lives in TOML)
* waiting.py   - wait_until
* terminal.py  - the REPL on a pseudo-terminal: type each line at its prompt, read the screen back
* sessionlog.py - the lenient reader of session logs (the log format is a course contract)
* provider.py  - the fake model's name, key and completion ids, drawn per run from its seed
"""

from grader.checkkit.failures import CheckFailed, differing, expect_equal, short, short_end
from grader.checkkit.waiting import wait_until
from grader.spawn import ChildResult, ChildTimeout

__all__ = ["CheckFailed", "ChildResult", "ChildTimeout", "differing", "expect_equal", "short", "short_end", "wait_until"]
