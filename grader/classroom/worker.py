"""One submission's grading, in a process of its own: `python -m grader.classroom.worker`.

The batch starts one of these per submission, in a new session, and reads the result
from the file named by `--out` (never from stdout, which the lab's code cannot reach
anyway, but a fake "10/10 passed" there must mean nothing). It grades exactly as
`grader check DAY --lab SUB --seed S --ci` does: `grader.engine.run_day`, with the same
copies, isolation and per-child limits, and no progress state.

It makes itself the subreaper of its descendants (Linux), so a lab process that
double-forks stays in its tree where reap.py finds it, and on the way out it kills
whatever of that tree is still alive.

Exit status: 0 with {"result": DayResult.to_dict()} in the out file; 2 with
{"error": message} when the checks could not run at all (an EngineError).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

def _write(path: Path, data: dict) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.classroom.worker")
    parser.add_argument("--course", required=True, type=Path)
    parser.add_argument("--day", required=True)
    parser.add_argument("--lab", required=True, type=Path)
    parser.add_argument("--seed", required=True, type=int)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--lang", default=None)
    args = parser.parse_args(argv)

    from grader.spawn.groups import adopt_orphans
    adopt_orphans()  # the subreaper of its descendants; an orphan a lab left goes with its child
    from grader import i18n
    from grader.classroom.reap import kill_descendants
    from grader.course import CourseError, load_course
    from grader.engine import EngineError, run_day

    i18n.set_language(args.lang)
    try:
        course = i18n.localise(load_course(args.course))
        day = course.find_day(args.day)
        # the batch grades submissions side by side; each one's checks run one at a time
        result = run_day(course, day, args.lab, select=args.only or None, seed=args.seed, jobs=1)
    except (EngineError, CourseError) as exc:
        _write(args.out, {"error": str(exc)})
        return 2
    finally:
        kill_descendants(os.getpid())
    _write(args.out, {"result": result.to_dict()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
