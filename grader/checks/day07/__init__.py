"""Day 07: session persistence (the checks folder is a package, so its modules can share helpers)."""
