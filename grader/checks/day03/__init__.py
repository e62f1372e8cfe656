"""Day 03 checks: read-only tools, the tool loop and honest truncation."""
