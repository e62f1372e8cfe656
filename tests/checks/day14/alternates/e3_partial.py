'''snapshotting binds the tool's run with functools.partial and resolves the path with a
workdir of its own, Path(workdir), as the tools do.'''
TARGET = "mca/snapshots/tools.py"
FAILS = ()
from functools import partial


def snapshotting(tool, workdir, store):
    root = Path(workdir)

    def run(args):
        return store.save(resolve_inside(root, args["path"]), partial(tool.run, args))

    return replace(tool, run=run)
