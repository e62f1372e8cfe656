"""Day 01 checks: the REPL and the gateway (a package, so its modules import each other)."""
