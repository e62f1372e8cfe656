"""Day 02 checks: streaming and event layering (a package, so its modules import each other)."""
