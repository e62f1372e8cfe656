"""`interruptible()` for checks; every child the spawn layer starts already gets it."""

from grader.spawn.interrupts import interruptible

__all__ = ["interruptible"]
