'''Every tool that takes a path is snapshotted, read_file and grep too ("better safe"): a
read logs a snapshot of a file nothing changed.'''
TARGET = "mca/snapshots/tools.py"
FAILS = ("snapshot-before-write", "undo-last-round")


def snapshot_writes(tools, workdir, store):
    for name in tools.names():
        tool = tools.get(name)
        if tool is not None and "path" in tool.parameters.get("properties", {}) and name != "list_dir":
            tools.add(snapshotting(tool, workdir, store))
