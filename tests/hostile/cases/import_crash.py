"""`mca/__init__.py` raises: every `python -m mca` and every import of the lab crashes.
The import probe finds it first: every check is skipped with that one cause."""
APPEND = {"mca/__init__.py": 'raise RuntimeError("hostile lab: crash on import @MARKER@")\n'}
OTHERS = "skipped"
