"""`mca/__init__.py` loops for ever: every `python -m mca` and every import of the lab hangs.
The import probe is stopped at its own limit, and every check reports that one cause
instead of waiting out a time limit of its own."""
APPEND = {"mca/__init__.py": "while True:  # @MARKER@\n    pass\n"}
OTHERS = "skipped"
