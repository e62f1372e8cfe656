"""Every run leaves a `sleep 600` behind in a new session (start_new_session=True), holding the stdout and stderr pipes."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)

import subprocess


import time


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"], start_new_session=True)
