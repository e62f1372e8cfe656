"""`mca/__init__.py` raises: every `python -m mca` and every import of the lab crashes."""
APPEND = {"mca/__init__.py": 'raise RuntimeError("hostile lab: crash on import @MARKER@")\n'}
OTHERS = "failed"
