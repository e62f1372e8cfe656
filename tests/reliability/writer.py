"""Child process for the reliability tests, run as ``python -S writer.py MODE DIR [ID]``
with the day-07 solution on PYTHONPATH.

* ``write DIR``    create a session, print ``id <id>``, then append events forever, printing
                   each seq (unbuffered) after its append returned. The test SIGKILLs it.
* ``hold DIR ID [--mid-tool]``  resume the session (optionally append an assistant message
                   with a tool call, as while a tool runs), print ``ready <id>``, then wait
                   until stdin closes. Holds the writer lock meanwhile.
* ``resume DIR ID``  try to resume once; print ``ok <id> <forked_from>`` or ``refused <message>``.
"""

from __future__ import annotations

import os
import sys

SIZES = (20, 3_000, 70_000, 250_000)  # tool results of several sizes: some writes span many pages


def event_for(seq: int) -> tuple[str, dict]:
    """The event the writer appends as ``seq`` (a pure function, so the test can check content)."""
    if seq == 1:
        return "message", {"message": {"role": "system", "content": "You are mca."}}
    step, base = (seq - 2) % 6, seq - (seq - 2) % 6
    call = f"call_{base + 2}"
    if step == 0:
        return "message", {"message": {"role": "user", "content": f"question {seq}"}}
    if step == 1:
        return "usage", {"input_tokens": seq, "output_tokens": 7}
    if step == 2:
        return "message", {"message": {"role": "assistant", "content": "",
                                       "tool_calls": [{"id": call, "name": "run_command", "args": {"command": "ls"}}]}}
    if step == 3:
        return "tool_end", {"id": call, "name": "run_command", "ok": True, "ms": 1, "chars": 5,
                            "truncated": False, "blocked_by": None}
    if step == 4:
        return "message", {"message": {"role": "tool", "content": f"{seq} " * (SIZES[seq % 4] // 4),
                                       "tool_call_id": call}}
    return "message", {"message": {"role": "assistant", "content": f"answer {seq}"}}


def say(text: str) -> None:
    os.write(1, (text + "\n").encode())


def main(argv: list[str]) -> int:
    mode, directory = argv[1], argv[2]
    if mode == "write":
        from mca.session.log import SessionLog

        log = SessionLog.create(directory)
        say(f"id {log.session_id}")
        seq = 1
        while True:
            kind, fields = event_for(seq)
            say(str(log.append(kind, **fields).seq))
            seq += 1
    from mca.session.resume import ResumeError, resume

    try:
        resumed = resume(directory, argv[3])
    except ResumeError as exc:
        say(f"refused {exc}")
        return 1
    if mode == "resume":
        say(f"ok {resumed.session_id} {resumed.forked_from}")
        resumed.log.close()
        return 0
    if "--mid-tool" in argv:
        resumed.log.append("message", message={"role": "assistant", "content": "",
                                               "tool_calls": [{"id": "call_live", "name": "run_command", "args": {}}]})
    say(f"ready {resumed.session_id}")
    sys.stdin.read()
    resumed.log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
