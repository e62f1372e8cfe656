"""Day 04 checks: write tools and the shell (a package, so its modules import each other)."""
