"""Children: the only place a student's code ever runs.

* child.py   - one child: a new process group, time limits, killed with its descendants;
* groups.py  - process groups, sessions and trees: a child's descendants, found from outside;
* capture.py - capped capture of a child's output;
* lab.py     - starting the lab's agent or a harness: isolated, scrubbed, with repro lines;
* hermetic.py - the bubblewrap view a lab child runs in, where one can be made.
"""

from grader.spawn.capture import DEFAULT_OUTPUT_CAP
from grader.spawn.child import (SCALE_VAR, Child, ChildResult, ChildTimeout, run, scaled, start,
                                timeout_scale)
from grader.spawn.lab import LabRunner, base_python

__all__ = ["DEFAULT_OUTPUT_CAP", "SCALE_VAR", "Child", "ChildResult", "ChildTimeout", "LabRunner",
           "base_python", "run", "scaled", "start", "timeout_scale"]
