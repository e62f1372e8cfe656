"""The same hostile labs graded with each lab child in a view of its own (grader/spawn/hermetic.py).

Without the view (the other tests here), a lab that reads its parent's environment in /proc
finds the kit and writes into it, and a daemon that leaves its group, scrubs its environment
and lets go of the pipes outlives the grading. In the view there is no parent to read (the
view's init is its parent) and no kit to write into, and the daemon dies with the view's
PID namespace when the child's init goes.
"""

from __future__ import annotations

import json

import pytest

from grader.spawn import hermetic
from tests.hostile import hostile
from tests.hostile.hostile import uses

FOUND = hermetic.find()
pytestmark = [hostile.linux_only,
              pytest.mark.skipif(not FOUND.bwrap, reason=f"no hermetic mode here: {FOUND.why}")]


@uses("writes-grader-package", "hermetic:writes-grader-package")
def test_in_the_view_a_lab_cannot_reach_the_kit_it_wrote_into_without_it(runs):
    plain, viewed = runs.get("writes-grader-package"), runs.get("hermetic:writes-grader-package")
    assert plain.grader_after != plain.grader_before, "without the view the write lands (the weaker mode)"
    assert viewed.grader_after == viewed.grader_before, "in the view the kit is not there to write into"
    assert "changed while the lab's code ran" not in viewed.stderr
    assert viewed.lab_after == viewed.lab_before and viewed.left_behind == []
    assert json.loads(viewed.stdout)["total"] == 11, viewed.explain()


@uses("grandchild-scrubbed", "hermetic:grandchild-scrubbed")
def test_in_the_view_the_scrubbed_daemon_dies_with_its_child(runs):
    plain, viewed = runs.get("grandchild-scrubbed"), runs.get("hermetic:grandchild-scrubbed")
    assert plain.left_behind == [], "the grading adopts and kills the daemon without the view too (subreaper)"
    assert not viewed.hard_limit_hit, viewed.explain()
    assert viewed.left_behind == [], f"still running after the grading ended: {viewed.left_behind[:3]}"
    assert viewed.lab_after == viewed.lab_before and viewed.grader_after == viewed.grader_before
