'''`/rollback` alone lists each round at the seq of its first snapshot instead of its start:
following the list leaves that round's first change in place.'''
TARGET = "mca/snapshots/commands.py"
FAILS = ("rollback-to-seq",)


def rollback_points(events: list[Event]) -> list[str]:
    """``/rollback N  before "the request"  (then: files)`` for each round that changed files."""
    starts = [event for event in events if is_round_start(event)]
    lines = []
    for n, start in enumerate(starts):
        end = starts[n + 1].seq if n + 1 < len(starts) else None
        paths = sorted({e.fields.get("path") for e in changes_after(events, start.seq)
                        if end is None or e.seq < end})
        if not paths:
            continue
        what = (f"before {preview((start.message or {}).get('content'), 40)!r}" if start.type == "message"
                else f"before the {start.fields.get('command', 'rollback')} at seq {start.seq}")
        first = min(e.seq for e in changes_after(events, start.seq) if end is None or e.seq < end)
        lines.append(f"/rollback {first:<4} {what}  (then: {', '.join(map(str, paths))})")
    return lines
