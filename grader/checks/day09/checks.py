"""Day 09 checks (placeholder)."""
