"""Day 09 checks: project instructions, AGENTS.md from the repository root to the workdir.

The contract is shared/days/week-2.md, day 9. Every check builds directory trees for this
run (trees.py) and runs the lab's agent as a child in the workdir, against the grader's
fake model server, and reads what the model was sent, what the agent printed and what it
logged (grader/checkkit/turns.py). Resume is two (or three) real processes.

Every draw holds the cases its check is about: a chain of nested directories with one
name that is not ASCII and a directory on the way without a file; a `.git` two or more
levels above the workdir, one just above it as a file (a submodule or a worktree) inside a
superproject's repository, one in the workdir itself (also a file, with a `.git` directory
further up), and no `.git` at all; files above the root, beside the path and below the
workdir; texts in plain English, one other script and mixed text (CJK, emoji); sizes
that fill the cap exactly, go over it by a few characters, and one file over it alone; a
file saved with CRLF line ends on the bill;
a file changed, one removed and one added between two processes, and a resume with
nothing changed.

root-to-leaf-order and frozen-on-resume run the agent on a pseudo-terminal of its own, as
a person at a terminal runs it, the others on pipes: each exercise point is judged both ways.
"""

from __future__ import annotations

import json
import re

from grader.checkkit import CheckFailed, differing, short
from grader.checkkit.turns import estimate, expect_sent, model_server, run_turn, token

from .trees import (CAP, VOICE_NAMES, add_decoys, copies, instruction_messages, instruction_text, make_tree, names,
                    rules, rules_of_size, strings_in)


def shown(value: object, limit: int = 300) -> str:
    return short(json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value), limit)


def voices(rng) -> list[str]:
    """The three voices, in a drawn order (each tree speaks all of them)."""
    out = list(VOICE_NAMES)
    rng.shuffle(out)
    return out


def turn_in(ctx, tree, prompt: str, **options):
    return run_turn(ctx, "day09", prompt, workspace=tree.top, cwd=tree.workdir, **options)


def prompt_of(rng) -> str:
    return f"{rng.choice(['please', 'now', 'ok'])} {token(rng)} {rng.randint(1, 999)}"


def expect_applied(ctx, tree, request, what: str, headers: bool = True) -> None:
    """The request's instructions hold every applying file once, in order, each after a header
    naming its path (unless not `headers`: merge's to judge), and no other AGENTS.md of the tree."""
    text = instruction_text(request.messages)
    end = 0
    for path in tree.applying():
        body = tree.texts[path].strip()
        at = text.find(body, end)
        if at < 0:
            where = "elsewhere" if copies(request.messages, body) else "nowhere"
            raise CheckFailed(ctx.say("order.missing", path=tree.shown(path), what=ctx.say(what),
                                      where=ctx.say(f"order.{where}")),
                              expected=", ".join(tree.shown(p) for p in tree.applying()), seen=shown(text, 400))
        if headers and not names(text[end:at], tree, path):
            raise CheckFailed(ctx.say("order.no_header", path=tree.shown(path)), expected=tree.shown(path),
                              seen=shown(text[end:at] or text[:at + 80], 200))
        if copies(request.messages, body) != 1:
            raise CheckFailed(ctx.say("order.not_once", path=tree.shown(path), count=copies(request.messages, body)))
        end = at + len(body)
    for path in tree.not_applying():
        if copies(request.messages, tree.texts[path].strip()):
            raise CheckFailed(ctx.say("order.read_outside", path=str(path.relative_to(tree.top)), what=ctx.say(what)),
                              expected=", ".join(tree.shown(p) for p in tree.applying()) or "-",
                              seen=shown(tree.texts[path], 120))


# --------------------------------------------------------------------------- 1

def test_root_to_leaf_order(ctx):
    """Every AGENTS.md from the repository root down to the workdir reaches the model once, outermost first, each under a header naming its path, and none below or beside that path."""
    rng = ctx.rng("root-to-leaf-order")
    # A: .git two or more levels up; files at the root, one middle directory and the workdir, a gap.
    middle = rng.randint(2, 3)
    depth = middle + 2 + rng.randint(0, 1)  # a directory above the root, sometimes two
    git_at = depth - 2 - middle
    deep = make_tree(ctx.tmp("deep") / "projects", rng, depth, git_at)
    v = voices(rng)
    deep.put(deep.root, rules(rng, v[0]))
    deep.put(deep.chain[git_at + 1 + rng.randrange(middle)], rules(rng, v[1]))
    deep.put(deep.workdir, rules(rng, v[2]))
    add_decoys(deep, rng, v)
    # B: a .git file (a submodule) just above the workdir, in a superproject with its own .git
    # and AGENTS.md: the nearest .git is the root; the root's file and the workdir's.
    depth = 3  # the superproject's .git in chain[0], the .git file (a submodule) in chain[1]
    near = make_tree(ctx.tmp("near") / "work", rng, depth, depth - 2, git_file=True)
    near.put(near.chain[0], rules(rng, v[2]))  # the superproject's: above the nearest .git
    near.put(near.root, rules(rng, v[1]))
    near.put(near.workdir, rules(rng, v[0]))
    add_decoys(near, rng, v)
    for tree, what in ((deep, "what.deep"), (near, "what.worktree")):
        turn = turn_in(ctx, tree, prompt_of(rng), tty=True)  # on a terminal of its own, as a person runs it
        expect_applied(ctx, tree, expect_sent(ctx, turn, "-"), what)


# --------------------------------------------------------------------------- 2

def test_stops_at_repo_root(ctx):
    """The nearest .git at or above the workdir, a directory or a file, is the root, so an AGENTS.md above it is not read and with no .git only the workdir's is."""
    rng = ctx.rng("stops-at-repo-root")
    v = voices(rng)
    depth = rng.randint(1, 3)  # how far above the workdir the root is
    above = make_tree(ctx.tmp("above") / "home", rng, depth + 3, 2)
    above.put(above.chain[0], rules(rng, v[0]))
    above.put(above.chain[1], rules(rng, v[1]))   # just above the root
    above.put(above.root, rules(rng, v[2]))
    above.put(above.workdir, rules(rng, v[0]))
    depth = rng.randint(3, 4)
    inside = make_tree(ctx.tmp("inside") / "home", rng, depth, depth - 1, git_file=True)  # .git in the workdir
    inside.put(inside.chain[-2], rules(rng, v[1]))
    inside.put(inside.chain[0], rules(rng, v[2]))
    inside.put(inside.workdir, rules(rng, v[1]))
    loose = make_tree(ctx.tmp("loose") / "home", rng, rng.randint(3, 4), None)  # no .git anywhere
    loose.put(loose.chain[-2], rules(rng, v[2]))
    loose.put(loose.chain[0], rules(rng, v[0]))
    loose.put(loose.workdir, rules(rng, v[1]))
    for tree, what in ((above, "what.above"), (inside, "what.inside"), (loose, "what.no_git")):
        turn = turn_in(ctx, tree, prompt_of(rng))
        expect_applied(ctx, tree, expect_sent(ctx, turn, "-"), what, headers=False)  # the headers are merge's


# --------------------------------------------------------------------------- 3

def dropped_named(ctx, tree, turn, path) -> None:
    said = turn.said.splitlines()
    if not any(names(line, tree, path) for line in said):
        raise CheckFailed(ctx.say("budget.drop_unsaid", path=tree.shown(path)), expected=tree.shown(path),
                          seen=shown(turn.said, 400))


def test_nearest_wins_over_budget(ctx):
    """Over the cap the deepest files win, so they are sent whole while the outer ones are dropped and named on screen, and files that fill the cap exactly are all sent."""
    rng = ctx.rng("nearest-wins-over-budget")
    v = voices(rng)
    # A: the workdir's and the middle file fill all but a few characters; the root's goes over by a few.
    over = make_tree(ctx.tmp("over") / "repos", rng, 4, 0)
    slack = rng.randint(40, 70)  # the root's file is longer than what is left, and long enough to hold its marker
    leaf = rng.randint(CAP // 4, CAP // 2)
    outer, mid, inner = (rules_of_size(rng, v[0], slack + rng.randint(1, 30)),
                         rules_of_size(rng, v[1], CAP - slack - leaf), rules_of_size(rng, v[2], leaf))
    r, m, w = over.put(over.root, outer), over.put(over.chain[2], mid), over.put(over.workdir, inner)
    # B: three files whose sizes add up to the cap exactly: all of them go.
    exact = make_tree(ctx.tmp("exact") / "repos", rng, 3, 0)
    a = rng.randint(200, CAP // 3)
    b = rng.randint(200, CAP // 3)
    for directory, size, voice in zip(exact.chain, (a, b, CAP - a - b), v):
        exact.put(directory, rules_of_size(rng, voice, size))
    # C: the workdir's file alone is over the cap: its head goes, cut, and the file above is dropped.
    alone = make_tree(ctx.tmp("alone") / "repos", rng, 2, 0)
    big = rules_of_size(rng, v[0], CAP + rng.randint(100, 3000))
    small = alone.put(alone.root, rules(rng, v[1]))
    alone.put(alone.workdir, big)

    turn = turn_in(ctx, over, prompt_of(rng))
    request = expect_sent(ctx, turn, "-")
    text = instruction_text(request.messages)
    for path in (m, w):
        if tree_body(over, path) not in text:
            raise CheckFailed(ctx.say("budget.deep_lost", path=over.shown(path), size=len(over.texts[path]),
                                      cap=CAP, total=len(outer) + len(mid) + len(inner)),
                              seen=shown(text, 300))
    if copies(request.messages, tree_body(over, r)) or copies(request.messages, outer.split()[0]):
        raise CheckFailed(ctx.say("budget.outer_sent", path=over.shown(r), total=len(outer) + len(mid) + len(inner),
                                  cap=CAP), seen=shown(text, 300))
    dropped_named(ctx, over, turn, r)

    turn = turn_in(ctx, exact, prompt_of(rng))
    text = instruction_text(expect_sent(ctx, turn, "-").messages)
    for path in exact.applying():
        if tree_body(exact, path) not in text:
            raise CheckFailed(ctx.say("budget.exact_lost", path=exact.shown(path), cap=CAP), seen=shown(text, 300))

    turn = turn_in(ctx, alone, prompt_of(rng))
    text = instruction_text(expect_sent(ctx, turn, "-").messages)
    if big[:200] not in text:
        raise CheckFailed(ctx.say("budget.alone_head", path=alone.shown(alone.workdir / "AGENTS.md"), size=len(big),
                                  cap=CAP), seen=shown(text, 300))
    if len(text) > CAP + 2000 or big[-200:] in text:
        raise CheckFailed(ctx.say("budget.alone_uncut", path=alone.shown(alone.workdir / "AGENTS.md"),
                                  size=len(big), cap=CAP), expected=f"<= {CAP}", seen=str(len(text)))
    said = turn.said + text
    if str(len(big)) not in said:
        raise CheckFailed(ctx.say("budget.alone_undeclared", size=len(big)), seen=shown(turn.said, 300))
    if tree_body(alone, small) in text:
        raise CheckFailed(ctx.say("budget.outer_sent", path=alone.shown(small), total=len(big), cap=CAP),
                          seen=shown(text, 200))
    dropped_named(ctx, alone, turn, small)


def tree_body(tree, path) -> str:
    return tree.texts[path].strip()


# --------------------------------------------------------------------------- 4

def test_injected_once(ctx):
    """The instructions reach the model once per session, in a system or developer message before the first user message, and every later turn carries that one copy and no other."""
    rng = ctx.rng("injected-once")
    v = voices(rng)
    tree = make_tree(ctx.tmp("once") / "code", rng, 3, 0)
    tree.put(tree.workdir, rules(rng, v[0]))
    tree.put(tree.root, rules(rng, v[1]))
    body = tree_body(tree, tree.workdir / "AGENTS.md")
    prompts = [prompt_of(rng) for _ in range(3)]
    turn = turn_in(ctx, tree, None, typed="".join(p + "\n" for p in prompts))
    ctx.expect_ok(turn.result)
    if len(turn.requests) != len(prompts):
        raise CheckFailed(ctx.say("once.requests", count=len(prompts)), seen=str(len(turn.requests)))
    first = instruction_messages(turn.requests[0].messages)
    if not any(body in str(m.get("content")) for m in first):
        where = copies(turn.requests[0].messages, body)
        raise CheckFailed(ctx.say("once.not_before_user" if where else "once.missing", path=tree.shown(
            tree.workdir / "AGENTS.md")), seen=shown(turn.requests[0].messages[:3], 400))
    for number, request in enumerate(turn.requests, 1):
        n = copies(request.messages, body)
        if n != 1:
            raise CheckFailed(ctx.say("once.copies", turn=number, count=n), expected="1", seen=str(n))
        if instruction_messages(request.messages) != first:
            raise CheckFailed(ctx.say("once.changed", turn=number), expected=shown(first, 200),
                              seen=shown(instruction_messages(request.messages), 200))
    totals = [line for line in turn.said.splitlines() if line.strip().startswith("instructions: total")]
    if len(totals) != 1:
        raise CheckFailed(ctx.say("once.billed", count=len(totals)), seen=shown(turn.said, 300))


# --------------------------------------------------------------------------- 5

def first_event(turn) -> dict:
    events = turn.log_events()
    return events[0] if events else {}


def test_frozen_on_resume(ctx):
    """A resumed session sends the instructions its first process sent, not the files as they are now, and the first event of its log holds them."""
    rng = ctx.rng("frozen-on-resume")
    v = voices(rng)
    tree = make_tree(ctx.tmp("frozen") / "src", rng, 4, 0)
    r, m, w = tree.put(tree.root, rules(rng, v[0])), tree.put(tree.chain[1], rules(rng, v[1])), \
        tree.put(tree.workdir, rules(rng, v[2]))
    with model_server() as server:  # both processes on a terminal of their own, as a person runs them
        first = turn_in(ctx, tree, prompt_of(rng), server=server, tty=True)
        request1 = expect_sent(ctx, first, "-")
        sent = [tree_body(tree, p) for p in (r, m, w) if copies(request1.messages, tree_body(tree, p))]
        if not sent:
            raise CheckFailed(ctx.say("frozen.nothing_sent"), seen=shown(instruction_text(request1.messages), 200))
        held = "\n".join(strings_in(first_event(first)))
        for body in sent:
            if body not in held:
                raise CheckFailed(ctx.say("frozen.not_in_first_event"), expected=shown(body, 100),
                                  seen=shown(first_event(first), 300))
        new = {tree.put(tree.root, rules(rng, v[1])), tree.put(tree.chain[2], rules(rng, v[0])),
               tree.put(tree.workdir, rules(rng, v[2]))}
        tree.remove(m)
        second = turn_in(ctx, tree, prompt_of(rng), server=server, sessions=first.sessions, resume=True, tty=True)
    request2 = expect_sent(ctx, second, "-")
    if request2.messages[:len(request1.messages)] != request1.messages:
        seen, expected = differing(instruction_text(request2.messages), instruction_text(request1.messages), 120)
        raise CheckFailed(ctx.say("frozen.not_same", count=len(request1.messages)), expected=expected, seen=seen)
    for path in new:
        if copies(request2.messages, tree_body(tree, path)):
            raise CheckFailed(ctx.say("frozen.reread", path=tree.shown(path)), seen=shown(tree.texts[path], 100))


# --------------------------------------------------------------------------- 6

def test_changed_note(ctx):
    """A resumed session names every instruction file changed, removed or added since it started, and prints no such note when none did."""
    rng = ctx.rng("changed-note")
    v = voices(rng)
    tree = make_tree(ctx.tmp("changed") / "code", rng, 4, 0)
    r, m, w = tree.put(tree.root, rules(rng, v[0])), tree.put(tree.chain[1], rules(rng, v[1])), \
        tree.put(tree.workdir, rules(rng, v[2]))
    with model_server() as server:
        first = turn_in(ctx, tree, prompt_of(rng), server=server)
        expect_sent(ctx, first, "-")
        same = turn_in(ctx, tree, prompt_of(rng), server=server, sessions=first.sessions, resume=True)
        expect_sent(ctx, same, "-")
        before = set(first.said.splitlines())
        for line in same.said.splitlines():
            for path in (r, m, w):
                if names(line, tree, path) and line not in before:
                    raise CheckFailed(ctx.say("changed.spurious", path=tree.shown(path)), seen=shown(line, 200))
        edited = rng.choice([r, w])
        tree.put(edited.parent, tree.texts[edited] + rules(rng, v[1], (1, 1)))
        tree.remove(m)
        added = tree.put(tree.chain[2], rules(rng, v[0]))
        third = turn_in(ctx, tree, prompt_of(rng), server=server, sessions=first.sessions, resume=True)
    expect_sent(ctx, third, "-")
    known = before | set(same.said.splitlines())
    fresh = [line for line in third.said.splitlines() if line not in known]
    for path, how in ((edited, "edited"), (m, "removed"), (added, "added")):
        if not any(names(line, tree, path) for line in fresh):
            raise CheckFailed(ctx.say("changed.unsaid", path=tree.shown(path), how=ctx.say(f"changed.{how}")),
                              seen=shown(third.said, 400))


# --------------------------------------------------------------------------- 7

ZERO = re.compile(r"^instructions: total 0 files, 0 chars ≈ 0 tokens$")


def test_no_file_no_message(ctx):
    """With no AGENTS.md from the root down to the workdir nothing is injected and the only instructions line printed is the zero bill."""
    rng = ctx.rng("no-file-no-message")
    v = voices(rng)
    repo = make_tree(ctx.tmp("none") / "work", rng, 4, 1)
    repo.put(repo.chain[0], rules(rng, v[0]))  # above the root
    add_decoys(repo, rng, v)                   # beside the path, below the workdir
    loose = make_tree(ctx.tmp("none2") / "work", rng, 3, None)
    loose.put(loose.workdir / "notes", rules(rng, v[1]))        # below a workdir with no repository
    loose.put(loose.chain[0] / f"{token(rng, 5)}", rules(rng, v[2]))  # beside its path
    one = make_tree(ctx.tmp("one") / "work", rng, 2, 0)  # for comparison: the system prompt beside one file
    one.put(one.workdir, rules(rng, v[0]))
    base = expect_sent(ctx, turn_in(ctx, one, prompt_of(rng)), "-").messages
    for tree, what in ((repo, "what.none_repo"), (loose, "what.none_loose")):
        turn = turn_in(ctx, tree, prompt_of(rng))
        request = expect_sent(ctx, turn, "-")
        before = instruction_messages(request.messages)
        for path, text in tree.texts.items():
            if copies(request.messages, text.strip()):
                raise CheckFailed(ctx.say("order.read_outside", path=str(path.relative_to(tree.top)),
                                          what=ctx.say(what)), seen=shown(text, 120))
        prompt0 = text_of_first(base)
        if len(before) != 1 or before[0].get("role") != "system" or not (
                text_of_first(request.messages) == prompt0
                or prompt0.startswith(text_of_first(request.messages)) and len(instruction_messages(base)) == 1):
            raise CheckFailed(ctx.say("none.injected", what=ctx.say(what)), expected=ctx.say("none.only_prompt"),
                              seen=shown(before, 300))
        lines = [line.strip() for line in turn.said.splitlines()]
        said = [line for line in lines if line.startswith("instructions:") or "AGENTS.md" in line]
        if len(said) != 1 or not ZERO.match(said[0]):
            raise CheckFailed(ctx.say("none.printed", what=ctx.say(what)),
                              expected="instructions: total 0 files, 0 chars ≈ 0 tokens", seen=shown(said, 300))


def text_of_first(messages: list[dict]) -> str:
    return str(messages[0].get("content")) if messages and isinstance(messages[0], dict) else ""


# --------------------------------------------------------------------------- 8

BILL_LINE = re.compile(r"^instructions: (.+?) (\d+) chars ≈ (\d+) tokens")
TOTAL_LINE = re.compile(r"^instructions: total (\d+) files?, (\d+) chars ≈ (\d+) tokens$")


def test_bill_printed(ctx):
    """Each file sent prints `instructions: PATH N chars ≈ T tokens` and the total line, N exact and T by day 8's estimate, and the first event holds the same figures."""
    rng = ctx.rng("bill-printed")
    v = voices(rng)
    tree = make_tree(ctx.tmp("bill") / "repo", rng, 3, 0)
    for directory, voice in zip(tree.chain, v):
        tree.put(directory, rules(rng, voice, (2, 8)))
    crlf = rng.choice(list(tree.texts))  # one file saved with CRLF line ends: its chars count them, as sent
    tree.put(crlf.parent, tree.texts[crlf].replace("\n", "\r\n"))
    turn = turn_in(ctx, tree, prompt_of(rng))
    request = expect_sent(ctx, turn, "-")
    text = instruction_text(request.messages)
    body = tree_body(tree, crlf)
    if body not in text and body.replace("\r\n", "\n") in text:
        raise CheckFailed(ctx.say("bill.line_ends", path=tree.shown(crlf)), expected=shown(body[:80], 100),
                          seen=shown(text[text.find(body.replace("\r\n", "\n")[:40]):][:80], 100))
    # The bill follows what was sent, in the order the message carries it (which files are
    # found is root-to-leaf-order's to judge): the workdir's at least.
    sent = [p for p in tree.texts if tree_body(tree, p) in text]
    sent.sort(key=lambda p: text.find(tree_body(tree, p)))
    if tree.workdir / "AGENTS.md" not in sent:
        raise CheckFailed(ctx.say("bill.nothing_sent"), seen=shown(text, 300))
    lines = [line.strip() for line in turn.said.splitlines()]
    billed = [m.groups() for m in map(BILL_LINE.match, lines) if m and not m.group(1).startswith("total ")]
    want = [(p, len(tree.texts[p]), estimate(tree.texts[p])) for p in sent]
    ok = len(billed) == len(want) and all(names(f" {b[0]} ", tree, p) and (int(b[1]), int(b[2])) == (c, t)
                                          for b, (p, c, t) in zip(billed, want))
    if not ok:
        raise CheckFailed(ctx.say("bill.lines"),
                          expected="; ".join(f"instructions: {tree.shown(p)} {c} chars ≈ {t} tokens" for p, c, t in want),
                          seen="; ".join(f"instructions: {a} {b} chars ≈ {c} tokens" for a, b, c in billed)
                          or shown(turn.said, 300))
    total = (len(want), sum(c for _, c, _ in want), sum(t for _, _, t in want))
    totals = [tuple(map(int, m.groups())) for m in map(TOTAL_LINE.match, lines) if m]
    if totals != [total]:
        raise CheckFailed(ctx.say("bill.total"), expected="instructions: total {} files, {} chars ≈ {} tokens".format(*total),
                          seen=str(totals) if totals else shown(turn.said, 300))
    record = first_event(turn).get("instructions")
    record = record if isinstance(record, dict) else {}
    files = record.get("files") if isinstance(record.get("files"), list) else []
    got = [(f.get("path"), f.get("chars"), f.get("tokens")) for f in files if isinstance(f, dict)]
    if len(got) != len(want) or any(not names(f" {g[0]} ", tree, p) or (g[1], g[2]) != (c, t)
                                    for g, (p, c, t) in zip(got, want)) or \
            (record.get("chars"), record.get("tokens")) != total[1:]:
        raise CheckFailed(ctx.say("bill.event"), expected=f"files {[(tree.shown(p), c, t) for p, c, t in want]}, "
                          f"chars {total[1]}, tokens {total[2]}", seen=shown(record, 300))
