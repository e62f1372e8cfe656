"""Day 14: a session of generated rounds of file changes, the model that plays it, and what
the workspace held at every point of its log.

The grader writes a workspace of its own (text files named and written in the three voices
of the kit's draws, one with Windows line endings, binary files, an empty file, an empty folder
and two empty folders one in the other) and plays five rounds against it through the fake model
server: edit_file, write_file (new files, in new folders too, over text and binary files, and
once with the bytes the file already holds), delete_file, read_file, run_command and an edit
whose old text is not there. The grader knows what each call does to the files, so it knows the
workspace at every event of the log; the model also reads the workspace each time a request
arrives, so a tool that did not do what was asked is told apart from a rollback that did
not undo it.

Every draw holds the same roles (only names, contents and order are drawn): relative to
the pivot (the user message of round 3) there are files changed only before it, changed
before and after it, changed several times after it, created before it and edited after,
created after it in new nested folders, created and edited after it, deleted after it
(a text and a binary one), a binary file and a Windows-line-ending file overwritten after
it, a file only read after it, a file written after it with the bytes it already holds, a
file created after it inside the user's own empty folders, two files created after it in one
new folder (the first, made with the folder, edited after the second: undone in any order but
the log's newest first, the folder is left behind), a run_command call after it, and files
never touched; the last round edits one file twice and two files at all, creates a file in
new folders, deletes a file, overwrites a binary one and overwrites the empty file. Rounds
1-3 run in one process, 4 and 5 in a second one that resumes the session.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader.checkkit import CheckFailed, short
from grader.checkkit import filetree
from grader.checkkit.draws import mixed_text, plain_text, script_text
from grader.checkkit.fakeserver import FakeModelServer, RecordedRequest
from grader.checkkit.replies import reply_stream
from grader.checkkit.sessionlog import logs_in, read_lines
from grader.checkkit.sse import SSEStream
from grader.checkkit.turns import marker, run_turn, token

VOICES = (plain_text, script_text, mixed_text)
SESSION_TIMEOUT = 90  # seconds for one REPL process of a few rounds with the fake model
QUESTION = "[y/N]"    # how the provided question about a file the user changed ends
ROUNDS_FIRST = 3      # rounds played by the first process; the others by a second, resumed one
PIVOT_ROUND = 2       # index of the round whose user message is the pivot


def one_line(text: str) -> str:
    return " ".join(text.split())


def words(rng, voice: int, span: tuple[int, int] = (3, 8)) -> str:
    return one_line(VOICES[voice % 3](rng, span))


# --------------------------------------------------------------------------- names and contents

NAME_WORDS = (("notes", "readme", "todo", "config", "draft", "report", "plan", "data"),
              ("笔记", "测试", "配置", "テスト", "メモ", "설정", "报告"),
              ("café", "🧪 lab", "naïve", "日志 log", "🚀 launch", "über"))


def file_name(rng, voice: int, ext: str) -> str:
    """A file name a person could have made, in one of the three voices."""
    return f"{rng.choice(NAME_WORDS[voice % 3])}_{token(rng, 4)}{ext}"


def text_lines(rng, voice: int, count: int) -> list[str]:
    """Lines of text, each holding a marker of its own, so that each is unique in its file."""
    return [f"{words(rng, voice + n, (2, 9))} {marker(rng, 'l')}" for n in range(count)]


def text_bytes(rng, voice: int, crlf: bool = False) -> bytes:
    lines = text_lines(rng, voice, rng.randint(3, 7))
    end = "\r\n" if crlf else "\n"
    return (end.join(lines) + (end if rng.random() < 0.7 else "")).encode("utf-8")


def binary_bytes(rng) -> bytes:
    """Bytes no text reading survives: NULs, bytes that are not UTF-8, CR LF, a PNG header."""
    body = bytes(rng.getrandbits(8) for _ in range(rng.randint(60, 400)))
    return b"\x89PNG\r\n\x1a\n" + body[:20] + b"\x00\xff\xfe\r\n\x00" + body[20:] + b"\xc3\x28\x80"


# --------------------------------------------------------------------------- operations

@dataclass
class Op:
    kind: str          # edit, create, overwrite, delete, read, miss (an edit whose old text is not there),
                       # same (a write of the bytes the file holds), command (a run_command call)
    path: str
    args: dict
    call_id: str = ""

    @property
    def tool(self) -> str:
        return {"edit": "edit_file", "miss": "edit_file", "create": "write_file", "overwrite": "write_file",
                "same": "write_file", "delete": "delete_file", "read": "read_file",
                "command": "run_command"}[self.kind]

    @property
    def changes(self) -> bool:
        return self.kind in ("edit", "create", "overwrite", "delete")


@dataclass
class Plan:
    prompt: str
    steps: list[list[Op]]
    answer: str
    tag: str


@dataclass
class World:
    """The files (path -> bytes) and folders (path without /) the grader knows are there."""

    files: dict[str, bytes]
    dirs: set[str]

    def copy(self) -> "World":
        return World(dict(self.files), set(self.dirs))

    def apply(self, op: Op) -> None:
        if op.kind in ("create", "overwrite", "same"):
            parts = op.path.split("/")[:-1]
            for n in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:n]))
            self.files[op.path] = op.args["content"].encode("utf-8")
        elif op.kind == "edit":
            text = self.files[op.path].decode("utf-8")
            self.files[op.path] = text.replace(op.args["old"], op.args["new"], 1).encode("utf-8")
        elif op.kind == "delete":
            del self.files[op.path]

    def tree(self) -> dict[str, bytes | None]:
        """As `filetree.contents` of the workspace would read it."""
        return {**self.files, **{d + "/": None for d in self.dirs}}


def world_of(root: Path) -> World:
    tree = filetree.take(root)
    return World({p: e.data for p, e in tree.items() if not p.endswith("/")}, {p[:-1] for p in tree if p.endswith("/")})


class Writer:
    """Draws the story's rounds against a World it keeps up to date, so each call is drawn on
    the files as they will be when it runs (an edit's old text is a line the file then holds)."""

    def __init__(self, rng, world: World) -> None:
        self.rng, self.world = rng, world
        self.voice = 0

    def next_voice(self) -> int:
        self.voice += 1
        return self.voice

    def edit(self, path: str) -> Op:
        text = self.world.files[path].decode("utf-8")
        lines = [line.rstrip("\r") for line in text.split("\n") if " l" in line and text.count(line.rstrip("\r")) == 1]
        old = self.rng.choice(lines)
        return self.done(Op("edit", path, {"path": path, "old": old,
                                           "new": f"{words(self.rng, self.next_voice(), (2, 8))} {marker(self.rng, 'l')}"}))

    def write(self, path: str) -> Op:
        kind = "overwrite" if path in self.world.files else "create"
        content = text_bytes(self.rng, self.next_voice()).decode("utf-8")
        return self.done(Op(kind, path, {"path": path, "content": content}))

    def delete(self, path: str) -> Op:
        return self.done(Op("delete", path, {"path": path}))

    def same(self, path: str) -> Op:
        """write_file with the bytes the file already holds: no change, so nothing to undo."""
        return self.done(Op("same", path, {"path": path, "content": self.world.files[path].decode("utf-8")}))

    def read(self, path: str) -> Op:
        return Op("read", path, {"path": path})

    def command(self) -> Op:
        """A run_command call that changes no file (a rollback over it still says it was not undone)."""
        return Op("command", "", {"command": f"echo {marker(self.rng, 'c')}"})

    def miss(self, path: str) -> Op:
        return Op("miss", path, {"path": path, "old": f"{marker(self.rng, 'gone')} {words(self.rng, 0, (2, 4))}",
                                 "new": words(self.rng, 1, (2, 4))})

    def done(self, op: Op) -> Op:
        self.world.apply(op)
        return op


# --------------------------------------------------------------------------- the story

@dataclass
class Roles:
    """Which file plays which part (paths relative to the workspace)."""

    changed_before_only: str
    read_before: str
    changed_around: str           # edited before the pivot and several times after it
    created_before: str           # created before the pivot, edited after it
    created_after: str            # created after the pivot in new nested folders, then edited
    created_in_old_dir: str       # created after the pivot in a folder that existed
    created_last: str             # created in the last round, in new folders
    deleted_before: str
    deleted_text: str             # deleted in the last round
    deleted_binary: str           # deleted after the pivot
    overwritten_binary: str       # overwritten with text after the pivot
    overwritten_last_binary: str  # overwritten with text in the last round
    overwritten_crlf: str
    read_after: str               # only read after the pivot
    rewritten_same: str           # written after the pivot with the bytes it already held
    user_dirs: str                # the user's two empty folders, one in the other (the inner one)
    created_in_user_dirs: str     # created after the pivot inside them
    shared_first: str             # created after the pivot with a new folder, edited after shared_second
    shared_second: str            # created after shared_first in its folder (sorts after it)
    empty_file: str               # empty, overwritten in the last round
    edited_last_twice: str        # edited twice in the last round
    edited_last: str              # edited once in the last round
    never: list[str]              # never touched (the sample's files among them)
    empty_dir: str


def draw_workspace(rng, ws: Path) -> Roles:
    """Generated files beside the sample's calc.py and test_calc.py, and who plays what."""
    def put(path: str, data: bytes) -> str:
        (ws / path).parent.mkdir(parents=True, exist_ok=True)
        (ws / path).write_bytes(data)
        return path

    old_dir = f"{rng.choice(NAME_WORDS[0])}_{token(rng, 3)}"
    sub = f"{old_dir}/{rng.choice(NAME_WORDS[1])}_{token(rng, 3)}"
    text = [put(f"{rng.choice(('', old_dir + '/', sub + '/'))}{file_name(rng, n, rng.choice(('.txt', '.md', '.py')))}",
                text_bytes(rng, n)) for n in range(12)]
    binaries = [put(f"{rng.choice(('', old_dir + '/'))}{file_name(rng, n, rng.choice(('.png', '.bin', '.dat')))}",
                    binary_bytes(rng)) for n in range(4)]
    crlf = put(file_name(rng, 1, ".txt"), text_bytes(rng, 2, crlf=True))
    empty = f"{rng.choice(NAME_WORDS[2])}_{token(rng, 3)}"
    (ws / empty).mkdir()
    user_dirs = f"{rng.choice(NAME_WORDS[0])}_{token(rng, 3)}/{rng.choice(NAME_WORDS[2])}_{token(rng, 3)}"
    (ws / user_dirs).mkdir(parents=True)
    empty_file = put(f"{rng.choice((old_dir, sub))}/__init__.py", b"")
    new_top = [f"{rng.choice(NAME_WORDS[n % 3])}_{token(rng, 3)}" for n in range(4)]
    shared = sorted({file_name(rng, 1, ".md"), file_name(rng, 2, ".md")})
    return Roles(
        changed_before_only=text[0], read_before=text[1], changed_around=text[2],
        created_before=f"{new_top[0]}/{file_name(rng, 0, '.md')}",
        created_after=f"{new_top[1]}/{rng.choice(NAME_WORDS[1])}_{token(rng, 3)}/{file_name(rng, 1, '.txt')}",
        created_in_old_dir=f"{old_dir}/{file_name(rng, 2, '.txt')}",
        created_last=f"{new_top[2]}/{rng.choice(NAME_WORDS[0])}_{token(rng, 3)}/{file_name(rng, 2, '.py')}",
        deleted_before=text[3], deleted_text=text[4], deleted_binary=binaries[0],
        overwritten_binary=binaries[1], overwritten_last_binary=binaries[2], overwritten_crlf=crlf,
        read_after=text[5], edited_last_twice=text[6], edited_last=text[7], rewritten_same=text[8],
        user_dirs=user_dirs, created_in_user_dirs=f"{user_dirs}/{file_name(rng, 0, '.txt')}",
        shared_first=f"{new_top[3]}/{shared[0]}", shared_second=f"{new_top[3]}/{shared[-1]}", empty_file=empty_file,
        never=[*text[9:], binaries[3], "calc.py", "test_calc.py"], empty_dir=empty)


def split_steps(rng, ops: list[Op], fixed: list[list[Op]] | None = None) -> list[list[Op]]:
    """`ops` in one to three model rounds (their order kept)."""
    if fixed is not None:
        return fixed
    cuts = sorted(rng.sample(range(1, len(ops)), min(len(ops) - 1, rng.randint(0, 2)))) if len(ops) > 1 else []
    bounds = [0, *cuts, len(ops)]
    return [ops[a:b] for a, b in zip(bounds, bounds[1:])]


def draw_plans(rng, roles: Roles, world: World) -> list[Plan]:
    """The five rounds, drawn in order on the world as it will be."""
    w = Writer(rng, world)
    r = roles
    rounds: list[list[list[Op]]] = []
    # round 1 and 2: before the pivot
    first = [w.edit(r.changed_around), w.write(r.created_before), w.edit(r.changed_before_only)]
    rounds.append(split_steps(rng, first))
    second_a = [w.edit(r.changed_before_only), w.read(r.read_before)]
    second_b = [w.delete(r.deleted_before), w.edit(r.changed_around)]
    rounds.append([second_a, second_b])  # two model rounds: a point inside the round is a seq of its own
    # round 3 and 4: after the pivot
    third = [w.edit(r.changed_around), w.edit(r.created_before), w.write(r.created_after),
             w.write(r.overwritten_binary), w.read(r.read_after), w.miss(r.changed_before_only),
             w.same(r.rewritten_same)]
    rng.shuffle(third)
    rounds.append(split_steps(rng, third))
    # in this order: shared_first (and its folder), then shared_second in it, then shared_first edited
    fourth = [w.write(r.shared_first), w.edit(r.created_after), w.write(r.created_in_user_dirs),
              w.edit(r.changed_around), w.write(r.shared_second), w.command(), w.delete(r.deleted_binary),
              w.edit(r.shared_first), w.write(r.created_in_old_dir), w.write(r.overwritten_crlf)]
    rounds.append(split_steps(rng, fourth))
    # round 5, the last: one file edited twice (two model rounds), another once, a new file in new folders
    last_a = [w.edit(r.edited_last_twice), w.edit(r.edited_last), w.write(r.created_last)]
    rng.shuffle(last_a)
    last_b = [w.edit(r.edited_last_twice), w.delete(r.deleted_text), w.write(r.overwritten_last_binary),
              w.write(r.empty_file)]
    rng.shuffle(last_b)
    rounds.append([last_a, last_b])
    plans = []
    for k, steps in enumerate(rounds):
        tag = marker(rng, "r")
        for s, step in enumerate(steps):
            for n, op in enumerate(step):
                op.call_id = f"call_{tag}_{s}_{n}"
        plans.append(Plan(f"{words(rng, k, (3, 10))} {tag}", steps, f"{words(rng, k + 1, (4, 14))} {tag}a", tag))
    return plans


# --------------------------------------------------------------------------- the model

def text_of(message: dict) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


def text_reply(text: str):
    return reply_stream(SSEStream().role().text(text).finish().usage(60, 9).done())


@dataclass
class Model:
    """Plays the plans: the calls of each step, then the answer; anything else gets a short answer.
    Each request for a step of a plan reads the workspace first (`seen`). A check adds rounds of
    its own (`extra`, by prompt), and asks for what a workspace held when a prompt arrived
    (`probes`: prompt -> workspace; `probed`: prompt -> its tree then)."""

    plans: list[Plan]
    workspace: Path
    seen: dict[tuple[int, int], dict] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    extra: dict[str, Plan] = field(default_factory=dict)
    probes: dict[str, Path] = field(default_factory=dict)
    probed: dict[str, filetree.Tree] = field(default_factory=dict)

    def __call__(self, request: RecordedRequest):
        messages = [m for m in request.messages if isinstance(m, dict)]
        users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        said = text_of(messages[users[-1]]) if users else ""
        k = next((n for n, p in enumerate(self.plans) if p.prompt == said), None)
        with self.lock:
            if said in self.probes and said not in self.probed:
                self.probed[said] = filetree.take(self.probes[said])
        plan = self.plans[k] if k is not None else self.extra.get(said)
        if plan is None:
            return text_reply(f"Noted: {said[:60]}")
        step = sum(1 for m in messages[users[-1] + 1:] if m.get("role") == "assistant")
        if k is not None:
            with self.lock:
                self.seen.setdefault((k, step), filetree.contents(filetree.take(self.workspace)))
        if step >= len(plan.steps):
            return text_reply(plan.answer)
        calls = [(op.call_id, op.tool, json.dumps(op.args, ensure_ascii=False)) for op in plan.steps[step]]
        stream = SSEStream().role().text(f"Working on it ({plan.tag}). ").tool_calls(calls, pieces=2)
        return reply_stream(stream.finish("tool_calls").usage(120, 30).done())


# --------------------------------------------------------------------------- running it

def session(ctx, root: Path, lines: list[str], server: FakeModelServer, *, resume: str | bool = False,
            tty: bool = False, answer=None):
    """The REPL in `root` (its workdir root/workspace, its sessions root/sessions), `--yes`,
    fed `lines` then /exit; `resume`: True for the latest session, or an id."""
    options = ("--yes",) + (("--resume", resume) if isinstance(resume, str) else ())
    typed = "".join(line + "\n" for line in lines + ["/exit"])
    return run_turn(ctx, "story", None, workspace=root / "workspace", sessions=root / "sessions", cwd=root,
                    resume=resume is True, server=server, tty=tty, typed=typed, timeout=SESSION_TIMEOUT,
                    options=options, answer=answer, question=QUESTION if answer else None)


@dataclass
class Story:
    root: Path                 # holds workspace/ and sessions/
    plans: list[Plan]
    roles: Roles
    start: World               # the workspace before round 1
    events: list[dict]         # the log after round 5
    session_id: str
    seqs: dict[str, int]       # call id -> seq of its tool_end
    prompts: list[int]         # seq of each round's user message
    steps: list[list[int]]     # seq of each step's assistant message, per round
    server: FakeModelServer    # the model the session was made with (later processes talk to it)
    model: Model               # ... and the model behind it
    done: dict[str, int] = field(default_factory=dict)  # call id -> seq of its snapshot (else its tool_end)

    @property
    def pivot(self) -> int:
        return self.prompts[PIVOT_ROUND]

    @property
    def ops(self) -> list[Op]:
        return [op for plan in self.plans for step in plan.steps for op in step]

    def world_at(self, seq: int) -> World:
        """The workspace right after event `seq`: every change whose snapshot event (which follows
        the change) is at or before it; a change with no snapshot event, by its tool_end."""
        world = self.start.copy()
        for op in self.ops:
            if op.changes and self.done.get(op.call_id, self.seqs[op.call_id]) <= seq:
                world.apply(op)
        return world

    def end(self) -> World:
        return self.world_at(10**9)

    def changed_after(self, seq: int) -> set[str]:
        return {op.path for op in self.ops if op.changes and self.seqs[op.call_id] > seq}

    def copy(self, ctx, name: str) -> Path:
        """A copy of the workspace and the sessions dir, for one check to change."""
        target = ctx.tmp(name)
        filetree.copy(self.root / "workspace", target / "workspace")
        filetree.copy(self.root / "sessions", target / "sessions")
        return target


@dataclass
class Draft:
    """The story before it is played: the workspace written, the rounds drawn, their model."""

    root: Path
    roles: Roles
    start: World
    plans: list[Plan]
    model: Model


def draw(ctx) -> Draft:
    rng = ctx.rng("story")
    ws = ctx.workspace("story")
    roles = draw_workspace(rng, ws)
    start = world_of(ws)
    plans = draw_plans(rng, roles, start.copy())
    return Draft(ws.parent, roles, start, plans, Model(plans, ws))


def play(ctx, draft: Draft, server: FakeModelServer) -> Story:
    """Play the drawn rounds in two processes against `server` (which answers with
    `draft.model`; the session is frozen to its URL, so every later process talks to it too)
    and read the log."""
    say, root, plans = ctx.say, draft.root, draft.plans
    for part, resume in ((plans[:ROUNDS_FIRST], False), (plans[ROUNDS_FIRST:], True)):
        turn = session(ctx, root, [p.prompt for p in part], server, resume=resume)
        ctx.expect_ok(turn.result, say("story.failed", command=turn.result.short_command(),
                                       status=turn.result.returncode))
    logs = logs_in(root / "sessions")
    if len(logs) != 1:
        raise CheckFailed(say("story.logs", count=len(logs)), seen=", ".join(p.name for p in logs) or "-")
    events = [line.data for line in read_lines(logs[0]) if line.data is not None]
    story = Story(root, plans, draft.roles, draft.start, events, logs[0].stem, {}, [], [], server, draft.model)
    locate(ctx, story)
    check_played(ctx, story, draft.model)
    return story


def locate(ctx, story: Story) -> None:
    """The seq of every round's user message, step and call, from the log (the grader's reader)."""
    say = ctx.say
    by_id = {e.get("id"): e["seq"] for e in story.events if e.get("type") == "tool_end"}
    window: list[int] = []  # the snapshot events since the last tool_end (or the message asking for calls)
    for e in story.events:
        kind = e.get("type")
        if kind == "message" and (e.get("message") or {}).get("tool_calls"):
            window = []
        elif kind == "snapshot":
            window.append(e["seq"])
        elif kind == "tool_end":
            if window:
                story.done[str(e.get("id"))] = window[0]
            window = []
    for plan in story.plans:
        users = [e["seq"] for e in story.events if e.get("type") == "message"
                 and (e.get("message") or {}).get("role") == "user" and text_of(e["message"]) == plan.prompt]
        if len(users) != 1:
            raise CheckFailed(say("story.no_prompt", prompt=short(plan.prompt, 60), count=len(users)))
        story.prompts.append(users[0])
        story.steps.append([])
        for step in plan.steps:
            for op in step:
                if op.call_id not in by_id:
                    raise CheckFailed(say("story.no_tool_end", tool=op.tool, path=op.path))
                story.seqs[op.call_id] = by_id[op.call_id]
            asked = [e["seq"] for e in story.events if e.get("type") == "message"
                     and any(c.get("id") == step[0].call_id for c in (e.get("message") or {}).get("tool_calls") or [])]
            story.steps[-1].append(asked[0] if asked else by_id[step[0].call_id])


def check_played(ctx, story: Story, model: Model) -> None:
    """Each time the model was asked for the next step, the workspace was as the calls so far make
    it: else the write tools did not do what the model asked, and nothing after it can be judged."""
    world = story.start.copy()
    for k, plan in enumerate(story.plans):
        for s in range(len(plan.steps) + 1):
            seen = model.seen.get((k, s))
            if seen is not None and seen != world.tree():
                kind, path = filetree.differences(seen, world.tree())[0]
                calls = ", ".join(f"{op.tool} {op.path}" for op in plan.steps[s - 1]) if s else "-"
                raise CheckFailed(ctx.say("story.diverged", kind=ctx.say(f"tree.{kind}", path=path), calls=calls))
            if s < len(plan.steps):
                for op in plan.steps[s]:
                    world.apply(op)
