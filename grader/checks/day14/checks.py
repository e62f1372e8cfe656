"""Day 14 checks: every write snapshotted first, /undo and /rollback SEQ put files back,
a fork and a rollback leave each other's half alone.

The contract is shared/days/week-2.md, day 14. Every check reads one story (story.py):
a workspace the grader wrote, its files named and written in the three voices of the
kit's draws (binary files, a file with Windows line endings and an empty folder among
them), and five rounds of write_file, edit_file, delete_file and read_file calls the
grader's fake model plays, three in one process and two in a second that resumes the
session. The grader knows what the workspace held at every event of the log. Each check
that rolls back works on a copy of the story's end (workspace and sessions dir) and does
it in a later process again (`--resume`), as a person comes back to a session; /undo and
the question about a file the user changed run on a pseudo-terminal, the rest through
a pipe. Trees are compared whole, byte for byte, folders included; "not written" means
the same bytes, inode and modification time (each file's time is first set in the past).

snapshot-before-write also plays the mock's own three rounds (MOCK=1, no model server),
as the lab sheet's walk-through does, and judges their snapshots the same way.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.checkkit import CheckFailed, short
from grader.checkkit import filetree
from grader.checkkit.fakeserver import FakeModelServer
from grader.checkkit.sessionlog import logs_in, read_lines
from grader.checkkit.turns import marker

from .story import (PIVOT_ROUND, QUESTION, SESSION_TIMEOUT, Op, Plan, Story, World, draw, file_name, play,
                    session, text_of, world_of, words)

MOCK_ROUNDS = ("make divide refuse zero", "add a power function", "write a changelog")  # the sheet's


@dataclass
class Once:
    """What a fixture made, or why it could not: raised again in each check that uses it."""

    value: object = None
    failure: BaseException | None = None

    def get(self):
        if self.failure is not None:
            raise self.failure
        return self.value


def once(make) -> Once:
    try:
        return Once(make())
    except Exception as exc:  # noqa: BLE001 - a CheckFailed, a child that timed out: each check reports it
        return Once(failure=exc)


@pytest.fixture(scope="module")
def story(ctx):
    """The five rounds, played once for every check, and the model server they were played
    against, which every later process of the session talks to (its URL is frozen in it)."""
    draft = draw(ctx)
    with FakeModelServer(model=draft.model) as server:
        yield once(lambda: play(ctx, draft, server))


def said(turn) -> str:
    """What the agent printed: its status lines (stderr) first, then the REPL's (stdout)."""
    return turn.result.stderr + "\n" + turn.result.stdout


def tail(turn, limit: int = 300) -> str:
    """The end of what the agent printed, on one line, from the start of a line."""
    lines = [line.strip() for line in said(turn).replace("\r", "").splitlines() if line.strip()]
    kept: list[str] = []
    while lines and len(" | ".join([lines[-1], *kept])) <= limit:
        kept.insert(0, lines.pop())
    if kept:
        return " | ".join(kept)
    return short(lines[-1], limit) if lines else "-"


def run(ctx, story: Story, root: Path, lines: list[str], **options):
    """A later process in `root` (a copy of the story's end): the REPL fed `lines`, exit 0."""
    turn = session(ctx, root, lines, story.server, **options)
    ctx.expect_ok(turn.result, ctx.say("run.failed", command=" / ".join(lines), status=turn.result.returncode))
    return turn


def described(ctx, found: list[tuple[str, str]], limit: int = 4) -> str:
    shown = "; ".join(ctx.say(f"tree.{kind}", path=path) for kind, path in found[:limit])
    return shown + (ctx.say("tree.more", count=len(found) - limit) if len(found) > limit else "")


def judge_tree(ctx, root: Path, expected: World, key: str, turn, **values) -> None:
    """The workspace is `expected`, byte for byte, folders included."""
    found = filetree.differences(filetree.contents(filetree.take(root / "workspace")), expected.tree())
    if found:
        raise CheckFailed(ctx.say(key, **values), expected=ctx.say("tree.expected", count=len(expected.files)),
                          seen=described(ctx, found) + " / " + ctx.say("tree.said", said=tail(turn, 160)))


def new_events(root: Path, after: int) -> list[dict]:
    logs = logs_in(root / "sessions")
    events = [line.data for log in logs for line in read_lines(log) if line.data is not None]
    return [e for e in events if isinstance(e.get("seq"), int) and e["seq"] > after]


# --------------------------------------------------------------------------- 1

def test_snapshot_before_write(ctx, story):
    """Before a write tool changes a file, the file's old bytes, or the fact that it did not exist, go into the session's store under their SHA-256, and one snapshot event names the path and that hash."""
    s = story.get()
    store = s.root / "sessions" / s.session_id / "snapshots"
    judge_snapshots(ctx, s.events, store, list(zip(s.ops, befores(s.start, s.ops))), ctx.say("what.story"))
    # the mock's own rounds, as the sheet runs them: no model server, nothing but MOCK=1
    events, store, writes = mock_session(ctx)
    if not [op for op, _ in writes if op.changes]:
        raise CheckFailed(ctx.say("mock.no_writes", rounds=", ".join(MOCK_ROUNDS)),
                          seen=ctx.say("mock.calls", calls=", ".join(f"{op.tool} {op.path}" for op, _ in writes)
                                       or "-"))
    judge_snapshots(ctx, events, store, writes, ctx.say("what.mock"))


def befores(start: World, ops: list[Op]) -> list[bytes | None]:
    """What each op's file held just before it ran."""
    world, out = start.copy(), []
    for op in ops:
        out.append(world.files.get(op.path))
        world.apply(op)
    return out


def windows(events: list[dict]) -> dict[str, list[dict]]:
    """The snapshot events logged while each call ran: after the call before it (or the
    message that asked for it), up to its own tool_end."""
    found: dict[str, list[dict]] = {}
    current: list[dict] = []
    for event in events:
        kind = event.get("type")
        if kind == "message" and (event.get("message") or {}).get("tool_calls"):
            current = []
        elif kind == "snapshot":
            current.append(event)
        elif kind == "tool_end":
            found[str(event.get("id"))] = current
            current = []
    return found


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def judge_snapshots(ctx, events: list[dict], store: Path, writes: list[tuple[Op, bytes | None]], what: str) -> None:
    say = ctx.say
    during = windows(events)
    for op, before in writes:
        snaps = during.get(op.call_id, [])
        call = f"{op.tool} {op.path}"
        if not op.changes:
            if snaps and op.kind == "read":
                raise CheckFailed(say("snap.for_read", call=call, what=what), seen=short(snaps[0], 200))
            if snaps and op.kind == "miss":
                raise CheckFailed(say("snap.for_miss", call=call, what=what), seen=short(snaps[0], 200))
            if op.kind != "same" or not snaps:
                continue  # a write of the bytes already there may be saved (its hash is then the old bytes')
        if len(snaps) != 1:
            raise CheckFailed(say("snap.count", call=call, count=len(snaps), what=what),
                              expected=say("snap.one"), seen=short([e.get("path") for e in snaps], 200))
        snap = snaps[0]
        if snap.get("path") != op.path:
            raise CheckFailed(say("snap.path", call=call, what=what), expected=op.path, seen=repr(snap.get("path")))
        want = None if before is None else digest(before)
        got = snap.get("hash")
        if got != want:
            if before is None:
                key = "snap.not_null"
            elif got is None:
                key = "snap.null"
            else:
                key = "snap.hash_new" if is_after(got, op, before) else "snap.hash"
            raise CheckFailed(say(key, call=call, what=what), expected=str(want), seen=str(got))
        if want is None:
            continue
        blob = store / want
        if not blob.is_file():
            raise CheckFailed(say("snap.no_blob", call=call, what=what, hash=want[:12]),
                              expected=f"{store.parent.parent.name}/{store.parent.name}/snapshots/{want}",
                              seen=", ".join(sorted(p.name[:12] for p in store.iterdir())[:6]) if store.is_dir()
                              else say("snap.no_store"))
        if blob.read_bytes() != before:
            raise CheckFailed(say("snap.blob", call=call, what=what, hash=want[:12]),
                              expected=short(before, 80), seen=short(blob.read_bytes(), 80))


def is_after(got: str, op: Op, before: bytes) -> bool:
    """Is `got` the hash of what the call left (a snapshot taken after the write)?"""
    world = World({op.path: before}, set())
    world.apply(op)
    after = world.files.get(op.path)
    return after is not None and got == digest(after)


def mock_session(ctx):
    """The mock's three rounds of the sheet, from the lab's own folder layout (./workspace):
    the log's events, the store, and each write call with what its file held before it."""
    ws = ctx.workspace("mock-session")
    root = ws.parent
    start = world_of(ws)
    typed = "".join(line + "\n" for line in (*MOCK_ROUNDS, "/exit"))
    result = ctx.run_agent("--yes", "--sessions-dir", str(root / "sessions"), cwd=root, input=typed,
                           timeout=SESSION_TIMEOUT)
    ctx.expect_ok(result, ctx.say("mock.failed", status=result.returncode))
    logs = logs_in(root / "sessions")
    if len(logs) != 1:
        raise CheckFailed(ctx.say("story.logs", count=len(logs)))
    events = [line.data for line in read_lines(logs[0]) if line.data is not None]
    results = {(e.get("message") or {}).get("tool_call_id"): text_of(e["message"]) for e in events
               if e.get("type") == "message" and (e.get("message") or {}).get("role") == "tool"}
    world, writes = start.copy(), []
    calls = [call for e in events if e.get("type") == "message"
             for call in (e.get("message") or {}).get("tool_calls") or []]
    for call in calls:
        op = mock_op(call, world)
        if op is None:
            continue
        ok = not str(results.get(op.call_id, "error")).startswith(("error", "denied", "blocked"))
        writes.append((op if ok or not op.changes else Op("miss", op.path, op.args, op.call_id),
                       world.files.get(op.path)))
        if ok:
            world.apply(op)
    return events, root / "sessions" / logs[0].stem / "snapshots", writes


def mock_op(call: dict, world: World) -> Op | None:
    args, name = call.get("args") or {}, call.get("name")
    path = str(args.get("path", ""))
    if name == "edit_file" and path in world.files:
        return Op("edit", path, args, str(call.get("id")))
    if name == "write_file":
        return Op("overwrite" if path in world.files else "create", path, args, str(call.get("id")))
    if name == "delete_file" and path in world.files:
        return Op("delete", path, args, str(call.get("id")))
    if name == "read_file":
        return Op("read", path, args, str(call.get("id")))
    return None


# --------------------------------------------------------------------------- 2

def test_undo_last_round(ctx, story):
    """/undo, after a round that only read a file too, puts every file the last round that changed files changed back, byte for byte, as it was before that round, and leaves the earlier rounds' changes and the conversation as they are."""
    say, s = ctx.say, story.get()
    rng = ctx.rng("undo-last-round")
    root = s.copy(ctx, "undo")
    read_round = extra_round(rng, s, [Op("read", s.roles.edited_last, {"path": s.roles.edited_last})])
    ask_after = f"{words(rng, 2, (3, 8))} {marker(rng, 'q')}"
    turn = run(ctx, s, root, [read_round, "/undo", ask_after], resume=True, tty=True)
    if filetree.contents(filetree.take(root / "workspace")) == s.end().tree():
        raise CheckFailed(say("undo.nothing"), seen=tail(turn))
    judge_tree(ctx, root, s.world_at(s.prompts[-1]), "undo.tree", turn, seq=s.prompts[-1])
    judge_history(ctx, s.server, read_round, ask_after, "/undo")


def extra_round(rng, s: Story, calls: list[Op]) -> str:
    """A round of the check's own for the story's model (its calls, then an answer): its prompt."""
    tag = marker(rng, "r")
    for n, op in enumerate(calls):
        op.call_id = f"call_{tag}_0_{n}"
    prompt = f"{words(rng, 0, (3, 8))} {tag}"
    s.model.extra[prompt] = Plan(prompt, [calls], f"{words(rng, 1, (4, 10))} {tag}a", tag)
    return prompt


def requests_for(server: FakeModelServer, last: str) -> list[list]:
    """The messages of each request whose last user message is `last`, in the order they came."""
    found = []
    for request in server.requests:
        messages = [m for m in request.messages if isinstance(m, dict)]
        users = [text_of(m) for m in messages if m.get("role") == "user"]
        if users and users[-1] == last:
            found.append(messages)
    return found


def judge_history(ctx, server: FakeModelServer, before: str, after: str, command: str) -> None:
    """The request for `after` (sent after `command`) carries exactly what the last request for
    `before` carried, then the answer to it and `after`: nothing added, nothing cut."""
    first, then = requests_for(server, before), requests_for(server, after)
    if not first or not then:
        raise CheckFailed(ctx.say("history.no_request", command=command))
    was, now = first[-1], then[0]
    if now[:len(was)] != was or len(now) != len(was) + 2 or now[-2].get("role") != "assistant":
        raise CheckFailed(ctx.say("history.changed", command=command),
                          expected=ctx.say("history.count", count=len(was) + 2),
                          seen=ctx.say("history.seen", count=len(now),
                                       roles=", ".join(str(m.get("role")) for m in now[-6:])))


# --------------------------------------------------------------------------- 3-5: one rollback to the pivot

@dataclass
class RolledBack:
    root: Path
    before: filetree.Tree   # the workspace before the rollback (times set in the past)
    after: filetree.Tree    # ... right after it
    turn: object
    mine: str               # a file of the user's own, put in a folder the agent made after SEQ
    data: bytes             # ... its bytes

    def expected(self, world: World) -> World:
        """`world` with the user's file in it (and its folders: the rollback leaves them)."""
        world = world.copy()
        world.apply(Op("create", self.mine, {"content": self.data.decode("utf-8")}))
        return world


@pytest.fixture(scope="module")
def rolled(ctx, story) -> Once:
    """A copy of the story's end, a file of the user's own put in the outer folder the agent made
    for a file after the pivot, every file's time set in the past, then `/rollback` (the list)
    and /rollback PIVOT in a resumed process; the workspace before and after it."""
    def make() -> RolledBack:
        s = story.get()
        rng = ctx.rng("rolled")
        root = s.copy(ctx, "rolled")
        mine = f"{s.roles.created_after.split('/')[0]}/{file_name(rng, 2, '.txt')}"
        data = f"{words(rng, 1, (3, 8))} {marker(rng, 'u')}\n".encode("utf-8")
        (root / "workspace" / mine).write_bytes(data)
        filetree.backdate(root / "workspace", ctx.rng("rolled-times"))
        before = filetree.take(root / "workspace")
        turn = run(ctx, s, root, ["/rollback", f"/rollback {s.pivot}"], resume=True)
        return RolledBack(root, before, filetree.take(root / "workspace"), turn, mine, data)
    return once(make)


def test_rollback_to_seq(ctx, story, rolled):
    """/rollback SEQ in a resumed session leaves the workdir byte for byte as it was at event SEQ (the seq of a snapshot event too), after generated rounds of edits, new files and deletions of text and binary files, says so when run_command calls since SEQ were not rolled back, and `/rollback` alone lists a seq to go back to before each round."""
    say, s, r = ctx.say, story.get(), rolled.get()
    expected = r.expected(s.world_at(s.pivot))
    found = filetree.differences(filetree.contents(r.after), expected.tree())
    if found:
        raise CheckFailed(say("seq.tree", seq=s.pivot, what=say("what.round_start", round=PIVOT_ROUND + 1)),
                          expected=say("tree.expected", count=len(expected.files)),
                          seen=described(ctx, found) + " / " + say("tree.said", said=tail(r.turn, 160)))
    lines = said(r.turn).replace("\r", "").splitlines()
    listed = [int(m.group(1)) for m in (POINT.match(strip_prompt(line)) for line in lines) if m]
    if not any("command" in line.lower() and "/help" not in line and not POINT.match(strip_prompt(line))
               for line in lines):
        raise CheckFailed(say("seq.no_command_note", seq=s.pivot), seen=tail(r.turn))
    for k, start in enumerate(s.prompts):
        if not any(s.world_at(n).tree() == s.world_at(start).tree() for n in listed):
            raise CheckFailed(say("seq.points", round=k + 1, seq=start),
                              seen=say("seq.listed", seqs=", ".join(map(str, listed)) or "-"))
    # a second rollback, further back, to a snapshot event's own seq inside a round (its change is
    # part of the state at that seq), over the first one's own writes
    first = s.plans[1].steps[1][0]
    second = s.done.get(first.call_id, s.seqs[first.call_id])
    turn = run(ctx, s, r.root, [f"/rollback {second}"], resume=True)
    judge_tree(ctx, r.root, r.expected(s.world_at(second)), "seq.tree", turn, seq=second,
               what=say("what.snapshot_seq", round=2, call=f"{first.tool} {first.path}"))


POINT = re.compile(r"/rollback\s+(\d+)\b")


def strip_prompt(line: str) -> str:
    """A line the REPL printed, without the prompts it follows (a pipe does not echo)."""
    line = line.strip()
    while line.startswith("you >"):
        line = line[len("you >"):].strip()
    return line


def test_created_file_removed(ctx, story, rolled):
    """A file the agent created after SEQ is removed by /rollback SEQ, together with the folders the agent made for it once nothing else is in them, while every file and folder that existed at SEQ still exists."""
    s, r = story.get(), rolled.get()
    then, end = s.world_at(s.pivot), s.end()
    created = sorted(p for p in end.files if p not in then.files)
    for path in created:
        if path in r.after:
            raise CheckFailed(ctx.say("created.left", path=path, seq=s.pivot), seen=tail(r.turn))
    if r.mine not in r.after or r.after[r.mine].data != r.data:
        raise CheckFailed(ctx.say("created.user_file", path=r.mine, folder=r.mine.split("/")[0], seq=s.pivot),
                          seen=tail(r.turn))
    for folder in sorted(then.dirs):
        if folder + "/" not in r.after:
            raise CheckFailed(ctx.say("created.dir_lost", folder=folder, seq=s.pivot), seen=tail(r.turn))
    holds_mine = set(r.expected(World({}, set())).dirs)
    for folder in sorted(end.dirs - then.dirs - holds_mine, key=len, reverse=True):
        if folder + "/" in r.after:
            raise CheckFailed(ctx.say("created.dir_left", folder=folder, seq=s.pivot),
                              seen=", ".join(p for p in r.after if p.startswith(folder + "/")) or
                              ctx.say("created.empty"))
    for path in sorted(then.files):
        if path not in r.after:
            raise CheckFailed(ctx.say("created.lost", path=path, seq=s.pivot), seen=tail(r.turn))


def test_untouched_untouched(ctx, story, rolled):
    """/rollback SEQ never writes a file the agent did not change after SEQ, so its bytes, inode and modification time stay as they were."""
    s, r = story.get(), rolled.get()
    changed = s.changed_after(s.pivot)
    then, end = s.world_at(s.pivot), s.end()
    moved = [p for p in sorted(changed) if then.files.get(p) != end.files.get(p)]
    now = {p: e.data for p, e in r.after.items() if e.data is not None}
    if all(now.get(p) == end.files.get(p) for p in moved):
        raise CheckFailed(ctx.say("untouched.nothing", seq=s.pivot), seen=tail(r.turn))
    for path, entry in sorted(r.before.items()):
        if entry.data is None or path in changed:
            continue
        later = r.after.get(path)
        if later is None or later.data != entry.data:
            raise CheckFailed(ctx.say("untouched.changed", path=path, seq=s.pivot), seen=tail(r.turn))
        if later.stamp != entry.stamp:
            raise CheckFailed(ctx.say("untouched.written", path=path, seq=s.pivot),
                              expected=ctx.say("untouched.stamp", ino=entry.ino, mtime=entry.mtime_ns),
                              seen=ctx.say("untouched.stamp", ino=later.ino, mtime=later.mtime_ns))


# --------------------------------------------------------------------------- 6

def user_changes(ctx, s: Story, root: Path) -> dict[str, bytes]:
    """Files of the last round changed by hand afterwards: two it edited (one added to, one
    rewritten), the one it created (added to) and the one it deleted (made again)."""
    rng = ctx.rng("user-change")
    ws = root / "workspace"
    r = s.roles
    mine = {r.edited_last_twice: s.end().files[r.edited_last_twice] + line_of(rng, 1),
            r.edited_last: line_of(rng, 2),
            r.created_last: s.end().files[r.created_last] + line_of(rng, 0),
            r.deleted_text: line_of(rng, 1) + line_of(rng, 2)}
    for path, data in mine.items():
        (ws / path).write_bytes(data)
    filetree.backdate(ws, rng)
    return mine


def line_of(rng, voice: int) -> bytes:
    return f"{words(rng, voice, (3, 8))} {marker(rng, 'u')}\n".encode("utf-8")


def test_user_change_protected(ctx, story):
    """A file the user changed since the agent's last change to it is overwritten by a rollback only when the person at the terminal says yes, and without a terminal it is kept and named, while the rest is rolled back."""
    say, s, r = ctx.say, story.get(), story.get().roles
    before_round = s.world_at(s.prompts[-1])
    others = sorted(s.changed_after(s.prompts[-1]) - {r.edited_last_twice, r.edited_last, r.created_last,
                                                      r.deleted_text})
    # no terminal: nobody to ask, so both are kept, untouched, and named
    root = s.copy(ctx, "user-piped")
    mine = user_changes(ctx, s, root)
    stamps = filetree.take(root / "workspace")
    turn = run(ctx, s, root, ["/undo"], resume=True)
    if QUESTION in said(turn):
        raise CheckFailed(say("user.asked_piped"), seen=tail(turn))
    now = filetree.take(root / "workspace")
    for path, data in mine.items():
        if path not in now or now[path].data != data:
            raise CheckFailed(say("user.overwritten_piped", path=path), seen=tail(turn))
        if now[path].stamp != stamps[path].stamp:
            raise CheckFailed(say("user.written_piped", path=path), seen=tail(turn))
    judge_others(ctx, root, others, before_round, turn)
    for path in mine:
        if path not in said(turn):
            raise CheckFailed(say("user.not_named", path=path), seen=tail(turn))
    # on a terminal: one question per changed file; no (or just Enter) keeps the user's bytes, yes restores
    root = s.copy(ctx, "user-tty")
    mine = user_changes(ctx, s, root)
    answers = {r.edited_last_twice: "n", r.edited_last: "y", r.created_last: "", r.deleted_text: "y"}
    asked: list[str] = []

    def answer(line: str) -> str:
        asked.append(line)
        named = [path for path in answers if path in line]
        return answers[named[0]] if len(named) == 1 else "n"

    turn = run(ctx, s, root, ["/undo"], resume=True, tty=True, answer=answer)
    for path in answers:
        questions = [q for q in asked if path in q]
        if len(questions) != 1:
            raise CheckFailed(say("user.questions", path=path, count=len(questions)), seen=tail(turn))
    stray = [q for q in asked if not any(path in q for path in answers)]
    if stray:
        raise CheckFailed(say("user.asked_other"), seen=short(stray[0], 200))
    now = filetree.take(root / "workspace")
    for path, reply in answers.items():
        if reply == "y":
            if (now[path].data if path in now else None) != before_round.files.get(path):
                raise CheckFailed(say("user.kept_yes", path=path, seq=s.prompts[-1]), seen=tail(turn))
        elif path not in now or now[path].data != mine[path]:
            raise CheckFailed(say("user.overwritten_no" if reply else "user.overwritten_enter", path=path),
                              seen=tail(turn))
    judge_others(ctx, root, others, before_round, turn)


def judge_others(ctx, root: Path, paths: list[str], expected: World, turn) -> None:
    """The files of the round nobody changed since were rolled back all the same."""
    now = filetree.contents(filetree.take(root / "workspace"))
    for path in paths:
        if now.get(path) != expected.files.get(path):
            raise CheckFailed(ctx.say("user.others", path=path), seen=tail(turn))


# --------------------------------------------------------------------------- 7

def test_rollback_undoable(ctx, story):
    """A rollback logs a rollback event before the snapshots of its own writes, and /undo after it, in a later process too, puts every file back as it was before the rollback, and a second /undo puts back what the first one undid."""
    say, s = ctx.say, story.get()
    root = s.copy(ctx, "undoable")
    last = s.events[-1]["seq"]
    turn = run(ctx, s, root, [f"/rollback {s.pivot}"], resume=True)
    rolled_back = filetree.contents(filetree.take(root / "workspace"))
    if rolled_back == s.end().tree():
        raise CheckFailed(say("undoable.nothing", seq=s.pivot), seen=tail(turn))
    events = new_events(root, last)
    marks = [e for e in events if e.get("type") == "rollback"]
    if not marks:
        raise CheckFailed(say("undoable.no_event"), seen=", ".join(str(e.get("type")) for e in events) or "-")
    if marks[0].get("to_seq") != s.pivot:
        raise CheckFailed(say("undoable.to_seq", seq=s.pivot), seen=repr(marks[0].get("to_seq")))
    early = [e for e in events if e.get("type") == "snapshot" and e["seq"] < marks[0]["seq"]]
    later = [e for e in events if e.get("type") == "snapshot" and e["seq"] > marks[0]["seq"]]
    if early or not later:
        raise CheckFailed(say("undoable.order"), seen=", ".join(str(e.get("type")) for e in events))
    turn = run(ctx, s, root, ["/undo"], resume=True)
    judge_tree(ctx, root, s.end(), "undoable.tree", turn, seq=s.pivot)
    # /undo again: the last round that changed files is now the first /undo, so this undoes it
    turn = run(ctx, s, root, ["/undo"], resume=True)
    found = filetree.differences(filetree.contents(filetree.take(root / "workspace")), rolled_back)
    if found:
        raise CheckFailed(say("undoable.twice", seq=s.pivot),
                          seen=described(ctx, found) + " / " + say("tree.said", said=tail(turn, 160)))


# --------------------------------------------------------------------------- 8

def fork_point(s: Story) -> int:
    """The answer that ends round 2: a clean point to fork at, before the pivot."""
    answers = [e["seq"] for e in s.events if e.get("type") == "message" and s.prompts[1] < e["seq"] < s.prompts[2]
               and (e.get("message") or {}).get("role") == "assistant" and not (e["message"].get("tool_calls"))]
    return answers[-1]


def prompts_sent(server: FakeModelServer, last: str) -> list[str] | None:
    """The user messages of the first request whose last user message is `last`."""
    for request in server.requests:
        users = [text_of(m) for m in request.messages if isinstance(m, dict) and m.get("role") == "user"]
        if users and users[-1] == last:
            return users
    return None


def test_fork_is_not_rollback(ctx, story):
    """/fork N leaves every file as it is, and a rollback in the fork finds the snapshots from before N in the parent's store and keeps its own in the fork's, while /rollback N leaves the conversation as it is, so the next request after a rollback carries exactly the messages it carried before."""
    say, s = ctx.say, story.get()
    rng = ctx.rng("fork-is-not-rollback")
    root = s.copy(ctx, "fork")
    filetree.backdate(root / "workspace", rng)
    before = filetree.take(root / "workspace")
    at = fork_point(s)
    ask_fork, ask_before, ask_rolled = (f"{words(rng, n, (3, 8))} {marker(rng, 'q')}" for n in (0, 1, 2))
    rounds = [p.prompt for p in s.plans]
    # the fork: the conversation goes back to seq N, the files stay as they are (as the model
    # sees them at the fork's first request); then a rollback in the fork, to before round 2
    s.model.probes[ask_fork] = root / "workspace"
    turn = run(ctx, s, root, [f"/fork {at}", ask_fork, f"/rollback {s.prompts[1]}"], resume=True)
    now = s.model.probed.get(ask_fork)
    if now is None:
        raise CheckFailed(say("fork.not_forked", seq=at), seen=say("fork.no_request"))
    for path in sorted(set(before) | set(now)):
        was, is_now = before.get(path), now.get(path)
        if was is None or is_now is None or is_now.data != was.data or (was.data is not None and is_now.stamp != was.stamp):
            raise CheckFailed(say("fork.files", path=path, seq=at), seen=tail(turn))
    sent = prompts_sent(s.server, ask_fork)
    if sent != rounds[:2] + [ask_fork]:
        raise CheckFailed(say("fork.not_forked", seq=at), expected=short(rounds[:2] + [ask_fork], 200),
                          seen=short(sent, 200) if sent else say("fork.no_request"))
    expected, theirs = in_fork_rolled_back(s, at)
    found = [(kind, path) for kind, path in filetree.differences(filetree.contents(filetree.take(root / "workspace")),
                                                                 expected.tree()) if path not in theirs]
    if found:
        raise CheckFailed(say("fork.rollback_in_fork", seq=at, to=s.prompts[1]),
                          seen=described(ctx, found) + " / " + say("tree.said", said=tail(turn, 160)))
    judge_fork_store(ctx, root, s, at)
    # the rollback, in the session forked from: the files go back to seq N, the conversation stays
    logs = len(logs_in(root / "sessions"))
    filetree.backdate(root / "workspace", rng)
    forked = filetree.contents(filetree.take(root / "workspace"))
    turn = run(ctx, s, root, [ask_before, f"/rollback {at}", ask_rolled], resume=s.session_id)
    if filetree.contents(filetree.take(root / "workspace")) == forked:
        raise CheckFailed(say("fork.rollback_nothing", seq=at), seen=tail(turn))
    if len(logs_in(root / "sessions")) != logs:
        raise CheckFailed(say("fork.new_session", seq=at), seen=", ".join(p.name for p in logs_in(root / "sessions")))
    sent = prompts_sent(s.server, ask_rolled)
    if sent != rounds + [ask_before, ask_rolled]:
        raise CheckFailed(say("fork.history_cut", seq=at), expected=short(rounds + [ask_before, ask_rolled], 200),
                          seen=short(sent, 200) if sent else say("fork.no_request"))
    judge_history(ctx, s.server, ask_before, ask_rolled, f"/rollback {at}")


def judge_fork_store(ctx, root: Path, s: Story, at: int) -> None:
    """The old bytes of the fork's own writes (its rollback's) are in the fork's own store: a
    session's snapshots live under its own id, and a fork only reads its parents' stores."""
    forks = [log for log in logs_in(root / "sessions") if log.stem != s.session_id]
    if len(forks) != 1:
        return  # fork.not_forked has said what is wrong with the fork
    own = root / "sessions" / forks[0].stem / "snapshots"
    for event in (line.data for line in read_lines(forks[0]) if line.data is not None):
        digest = event.get("hash")
        if event.get("type") != "snapshot" or not isinstance(event.get("seq"), int) or event["seq"] <= at:
            continue
        if isinstance(digest, str) and not (own / digest).is_file():
            raise CheckFailed(ctx.say("fork.own_store", hash=digest[:12], path=event.get("path")),
                              expected=f"{forks[0].stem}/snapshots/{digest}",
                              seen=", ".join(sorted(p.name[:12] for p in own.iterdir())[:6]) if own.is_dir()
                              else ctx.say("snap.no_store"))


def in_fork_rolled_back(s: Story, at: int) -> tuple[World, set[str]]:
    """The story's end after /rollback to round 2's start in a fork at `at` (the end of round 2),
    with no terminal: each file round 2 changed goes back as it was before round 2. The files a
    later round of the parent changed since are not judged here (their bytes are not what the
    fork's log says the agent left: user-change-protected's business); they are returned too."""
    end, left, start = s.end(), s.world_at(at), s.world_at(s.prompts[1])
    world, theirs = end.copy(), set()
    for path in {op.path for step in s.plans[1].steps for op in step if op.changes}:
        if end.files.get(path) != left.files.get(path):
            theirs.add(path)
        elif path in start.files:
            world.files[path] = start.files[path]
        else:
            world.files.pop(path, None)
    return world, theirs
