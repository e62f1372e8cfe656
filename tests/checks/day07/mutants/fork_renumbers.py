"""Fork keeps only the messages of the prefix and renumbers them from 1, then adds
the fork event: a tidy new log whose seq no longer matches the parent's."""
TARGET = "mca/session/fork.py"
FAILS = ("fork-copies-prefix", "missing-line")

import json


def fork(sessions_dir, parent_id, at_seq):
    sessions_dir = Path(sessions_dir)
    parent = session_path(sessions_dir, parent_id)
    if not parent.is_file():
        raise ForkError(f"no session {parent_id} in {sessions_dir}")
    events = read_events(parent).events
    if at_seq not in fork_points(events):
        raise ForkError(f"seq {at_seq} is not a fork point of {parent_id}")
    kept = [e for e in events if e.seq <= at_seq and e.type == "message"]
    child_id = fresh_session_id(sessions_dir)
    child = session_path(sessions_dir, child_id)
    with open(child, "x", encoding="utf-8") as out:
        for number, event in enumerate(kept, start=1):
            out.write(json.dumps({"seq": number, "ts": event.ts, "type": event.type, **event.fields},
                                 ensure_ascii=False) + "\n")
    with SessionLog.open_append(child, last_seq=len(kept)) as log:
        log.append("fork", **{"from": parent_id, "atSeq": at_seq})
    return child_id
