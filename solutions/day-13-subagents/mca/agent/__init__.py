"""The agent loop and the events it emits."""
