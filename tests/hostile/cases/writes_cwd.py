"""Every run deletes the Python files in its working directory and writes a file there."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)
STATUSES = {
    "written-as-it-happens": "failed",
    "resume-across-processes": "failed",
    "resume-unknown-id": "failed",
    "dangling-tool-call": "failed",
}


from pathlib import Path


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    here = Path.cwd()
    for path in here.glob("*.py"):
        path.unlink()
    (here / "hostile-was-here.txt").write_text("@MARKER@\n", encoding="utf-8")
