"""Every `python -m mca` first prints 100 MB to stdout (a million 100-byte lines), then works."""
TARGET = "mca/cli.py"
APPEND = {"mca/cli.py": "\n\n_reference_main = main\n\n\ndef main(argv=None):\n    hostile_start()\n    return _reference_main(argv)\n"}
ADD = ("hostile_start",)


def hostile_start():
    """Runs first in every `python -m mca`, then the reference main goes on."""
    line = "flood @MARKER@ ".ljust(99, "x") + "\n"
    for _ in range(100):
        sys.stdout.write(line * 10_000)
    sys.stdout.flush()
