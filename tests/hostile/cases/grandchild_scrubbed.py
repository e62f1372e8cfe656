"""Every run leaves a daemon that covers its tracks: new session, empty environment, cwd /, no inherited files."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)

import subprocess


import time


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"], env={}, cwd="/",
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)
