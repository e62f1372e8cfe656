"""Day 06 checks: errors fed back, retries with backoff, cancel, hard caps."""
