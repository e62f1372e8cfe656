'''Only the tools that make or remove a whole file are snapshotted, not edit_file ("an edit
changes a line, not the file"): an edited file cannot be rolled back.'''
TARGET = "mca/snapshots/tools.py"
FAILS = ("snapshot-before-write", "undo-last-round", "rollback-to-seq", "created-file-removed",
         "user-change-protected", "fork-is-not-rollback")


def snapshot_writes(tools, workdir, store):
    for name in ("write_file", "delete_file"):
        tool = tools.get(name)
        if tool is not None:
            tools.add(snapshotting(tool, workdir, store))
