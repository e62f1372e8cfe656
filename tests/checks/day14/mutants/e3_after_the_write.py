'''The tool runs first and save is told about it afterwards ("record what the tool did"):
the snapshot holds the file as the write left it.'''
TARGET = "mca/snapshots/tools.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq", "created-file-removed",
         "user-change-protected", "fork-is-not-rollback")


def snapshotting(tool, workdir, store):
    def run(args):
        target = resolve_inside(workdir, str(args.get("path", "")))
        result = tool.run(args)
        store.save(target, lambda: None)
        return result

    return replace(tool, run=run)
