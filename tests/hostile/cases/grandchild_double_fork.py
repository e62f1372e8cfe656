"""Every run double-forks a daemon (fork, setsid, fork, stdio to /dev/null) that sleeps 600 s."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)


import os
import time


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "@MARKER@"])
        os._exit(0)
    os.wait()
