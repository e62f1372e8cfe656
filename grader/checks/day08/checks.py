"""Day 08 checks: @-references become injected context, with the bill.

The contract is shared/days/week-2.md, day 8. Every check runs the lab's agent as a
child (`python -m mca PROMPT`) in a workspace filled with files generated for this run,
against the grader's fake model server, and reads what the model received, what the
agent printed and what it logged (wire.py). `@url` pages come from a second loopback
server the check starts; nothing reaches the network.

Every draw holds the cases its check is about (none is left to a seed): a file named
twice and one in a subdirectory, a binary file, a line ending in CRLF and a trailing
blank line, text in ASCII, CJK and emoji, and on the bill two-byte characters and both
sides of U+0800; an empty file, a subdirectory, a dotfile and a dot-directory in a
listing; a page with a script, a style and an entity, a 404 and a page that never
answers; every image type the sheet names and one image over the cap; an e-mail whose
domain is a file and one followed at once by a bracketed reference, @@x next to files x
and @x, a code span and a fenced block naming files that exist, punctuation after
references that resolve, and references typed out of name order; each of `..`, an
absolute path and two symlinks (file, directory) pointing out, and a path that only
looks like an escape; a file over any plausible cap and one well under it; a reference
that is missing beside ones that resolve.

Some checks run the agent on a pseudo-terminal of its own, as a person at a terminal runs
it (file-injected, one of not-a-reference's three messages, and url-fetched and bill-printed
on a terminal, then on pipes), the others on pipes, so every exercise point is judged both
ways: an agent right only when nobody is at a terminal (or only when somebody is) fails. not-a-reference types a message in
each voice (plain English, one other script, mixed) and file-injected writes a file in each:
logic right only for text that looks generated fails on every seed.
"""

from __future__ import annotations

import base64
import html
import json
import re


from grader.checkkit import CheckFailed, ChildTimeout, short

from .wire import (PageServer, estimate, everything, expect_sent, marker, model_server, run_turn, text_of, token,
                   user_content)
from grader.checkkit.draws import VOICES, mixed_text, said, speaking
from grader.checkkit.links import symlink

def shown(value: object, limit: int = 300) -> str:
    """A text on one line, as JSON shows it (a newline as \\n, a CR as \\r), cut when long."""
    return short(json.dumps(value, ensure_ascii=False) if isinstance(value, str) else value, limit)


CAP_BOUND = 30000  # characters: no reasonable cap on one injection is larger (the lab's is 12000)


def voiced(rng, voice: str, words: tuple[int, int] = (3, 9)) -> str:
    """Text in `voice` (one of draws.VOICES): plain English, one other script, or mixed."""
    with speaking(voice):
        return said(rng, words)


def voices(rng) -> list[str]:
    """Every voice once, in a drawn order: a check that speaks all of them holds, on every
    seed, logic right only for one kind of text (say, only for text that mixes CJK and emoji)."""
    out = list(VOICES)
    rng.shuffle(out)
    return out


def file_text(rng, lines: tuple[int, int] = (3, 8), voice: str = "mixed") -> str:
    """Generated file content: lines of text in `voice` (mixed by default), a unique marker in each."""
    return "".join(f"{voiced(rng, voice)} {marker(rng)}\n" for _ in range(rng.randint(*lines)))


def count(haystack: str, needle: str) -> int:
    return haystack.count(needle)


def expect_once(ctx, text: str, content: str, ref: str) -> None:
    n = count(text, content)
    if n != 1:
        raise CheckFailed(ctx.say("file.not_once", ref=ref, count=n), expected=shown(content, 120),
                          seen=shown(text, 300))


# --------------------------------------------------------------------------- 1

def binary_file(rng) -> tuple[bytes, str]:
    """Bytes that are not UTF-8 (a NUL, bytes no UTF-8 sequence starts with, a lead byte
    without its continuation) with an ASCII marker among them: a decoder that replaces what
    it cannot read, or drops it, would send the marker."""
    secret = marker(rng, "bin")
    noise = bytes(rng.randrange(256) for _ in range(rng.randint(40, 400)))
    return b"\x00\xff\xfe" + noise[:20] + b"\xc3(" + secret.encode("ascii") + b"\x80\x81" + noise, secret


def test_file_injected(ctx):
    """A file named with @ reaches the model in the user message, its generated text exactly and once (named twice, or in a subdirectory), and what was typed is sent too."""
    rng = ctx.rng("file-injected")
    v = voices(rng)  # a file in each voice, each with edges a tidy-up would change
    a, b, c = f"{token(rng)}.py", f"{token(rng)}/{token(rng)}.md", f"{token(rng)}.{rng.choice(['txt', 'rst'])}"
    first = f"  {voiced(rng, v[0])}\r\n" + file_text(rng, voice=v[0]) + "\n"  # leading spaces, a CRLF line, a trailing blank line
    second = f"\t{voiced(rng, v[1])}\r\n" + file_text(rng, voice=v[1]) + f"{voiced(rng, v[1])} end"  # no newline at the end
    third = f" {voiced(rng, v[2])}\r\n" + file_text(rng, voice=v[2]) + "\n"  # the same edges, in the third voice
    unnamed = f"{token(rng)}.txt"
    unnamed_text = file_text(rng, (1, 2), voice=v[0])
    binary = f"{token(rng)}.{rng.choice(['bin', 'dat', 'txt', 'py'])}"  # the name does not make it text
    data, secret = binary_file(rng)
    prompt = (f"{voiced(rng, v[0], (2, 4))} @{a} {voiced(rng, v[1], (2, 4))} @{binary} @{b} and @{a} again, "
              f"@{c} {voiced(rng, v[2], (2, 4))}")
    # On a terminal of its own, as a person types it: the files reach the model whoever is watching.
    turn = run_turn(ctx, "file-injected", prompt, {a: first, b: second, c: third, unnamed: unnamed_text, binary: data},
                    tty=True)
    request = expect_sent(ctx, turn, prompt)
    text = text_of(user_content(request))
    if prompt not in text:
        raise CheckFailed(ctx.say("turn.typed_lost"), expected=prompt, seen=shown(text, 300))
    expect_once(ctx, text, first, a)
    expect_once(ctx, text, second, b)
    expect_once(ctx, text, third, c)
    if unnamed_text in everything(request) or unnamed_text.strip() in text:
        raise CheckFailed(ctx.say("file.unnamed_sent", name=unnamed), seen=shown(text, 300))
    sent = everything(request)
    if secret in sent or "\ufffd" in sent:
        raise CheckFailed(ctx.say("file.binary_sent", ref=f"@{binary}"), expected=ctx.say("file.binary_note"),
                          seen=shown(text, 300))
    told = turn.said
    if binary not in told:
        raise CheckFailed(ctx.say("file.binary_no_note", ref=f"@{binary}"), seen=shown(told, 300))
    billed = [line.strip() for line in told.splitlines() if line.strip().startswith(f"injected: {binary} ")]
    if billed:
        raise CheckFailed(ctx.say("file.binary_billed", ref=f"@{binary}"), seen=shown(billed[0], 200))


# --------------------------------------------------------------------------- 2

def test_dir_listed(ctx):
    """@dir/ (and @dir) injects a listing: every entry's name (hidden ones too), each file with its exact size in bytes, a subdirectory with a trailing /, and none of the files' contents."""
    rng = ctx.rng("dir-listed")
    files: dict[str, str] = {}
    contents: list[str] = []
    wanted: dict[str, list[tuple[str, int | None]]] = {}
    for d in (f"d{token(rng, 5)}", f"e{token(rng, 5)}"):
        entries = []
        names = {f"{token(rng, 4)}{rng.choice(['', '_数据', '-v2'])}.{rng.choice(['py', 'txt', 'md'])}"
                 for _ in range(rng.randint(3, 5))}
        for k, name in enumerate(sorted(names)):
            seen_if_sent = marker(rng, "c")  # a word of its own: no text of the prompt can look like it
            body = "" if k == 0 else f"{seen_if_sent} {file_text(rng, (1, 4))}"  # an empty file in every listing
            files[f"{d}/{name}"] = body
            if body:
                contents.append(seen_if_sent)
            entries.append((name, len(body.encode("utf-8"))))
        dotfile = f".{token(rng)}{rng.choice(['', 'rc', '.toml'])}"  # a hidden entry is an entry too
        dot_mark = marker(rng, "c")
        dot_body = f"{dot_mark} {file_text(rng, (1, 2))}"
        files[f"{d}/{dotfile}"] = dot_body
        contents.append(dot_mark)
        entries.append((dotfile, len(dot_body.encode("utf-8"))))
        for inner in (f"sub{token(rng, 4)}", f".{token(rng)}"):  # a subdirectory, and a hidden one
            inner_mark = marker(rng, "c")
            files[f"{d}/{inner}/{token(rng, 4)}.txt"] = f"{inner_mark} {file_text(rng, (1, 2))}"
            contents.append(inner_mark)
            entries.append((inner, None))
        wanted[d] = entries
    d1, d2 = list(wanted)
    prompt = f"{mixed_text(rng, (2, 4))} @{d1}/ {mixed_text(rng, (2, 3))} @{d2} ?"
    turn = run_turn(ctx, "dir-listed", prompt, files)
    text = text_of(user_content(expect_sent(ctx, turn, prompt)))
    lines = text.splitlines()
    for d, entries in wanted.items():
        for name, size in entries:
            if size is None:
                if not any(re.search(rf"(^|\s){re.escape(name)}/(\s|$)", line) for line in lines):
                    raise CheckFailed(ctx.say("dir.no_subdir", dir=d, name=name), expected=f"{name}/",
                                      seen=shown(text, 400))
                continue
            ok = any(name in line and re.search(rf"(^|\D){size}(\D|$)", line.replace(name, " "))
                     for line in lines)
            if not ok:
                raise CheckFailed(ctx.say("dir.no_entry", dir=d, name=name, size=size),
                                  expected=f"{name}  {size} bytes", seen=shown(text, 400))
    for piece in contents:
        if piece in text:
            raise CheckFailed(ctx.say("dir.contents_sent"), expected=ctx.say("dir.names_only"),
                              seen=shown(piece, 120))


# --------------------------------------------------------------------------- 3

def test_url_fetched(ctx):
    """`@http://127.0.0.1:PORT/...` is fetched once with a GET and its HTML reduced to text (tags, scripts and styles gone, entities decoded)."""
    rng = ctx.rng("url-fetched")
    with PageServer() as pages:
        # On a terminal of its own, as a person runs it, with a page that never answers; then on
        # pipes, as a script runs it (without that page: its wait is the time limit's, once is enough).
        fetched(ctx, rng, pages, tty=True, hang=True)
        fetched(ctx, rng, pages, tty=False, hang=False)


def fetched(ctx, rng, pages, *, tty: bool, hang: bool) -> None:
    """One turn that references a page, a 404 and (`hang`) a page that never answers."""
    paragraphs = [f"{mixed_text(rng).replace(chr(10), ' ')} {marker(rng, 'p')}" for _ in range(rng.randint(2, 4))]
    paragraphs = [" ".join(p.split()) for p in paragraphs]
    amp = f"{token(rng)} & {token(rng)}"
    secret_script, secret_style, secret_404 = marker(rng, "js"), marker(rng, "css"), marker(rng, "nf")
    page = ("<!DOCTYPE html><html><head><title>" + html.escape(token(rng)) + "</title>"
            f"<style>body {{ color: red }} /* {secret_style} */</style>"
            f"<script>var k = '{secret_script}';</script></head><body>"
            + "".join(f"<p>{html.escape(p)}</p>\n" for p in paragraphs)
            + f"<div><b>{html.escape(amp)}</b></div></body></html>")
    doc, gone, slow = f"/{token(rng)}/doc.html", f"/{token(rng)}", f"/{token(rng)}/slow"
    doc_url = pages.page(doc, page)
    gone_url = pages.page(gone, f"<html><body>not found {secret_404}</body></html>", status=404)
    noted = [gone_url] + ([pages.hang(slow, 60)] if hang else [])
    prompt = f"{mixed_text(rng, (2, 4))} @{doc_url} " + " ".join(f"@{url}" for url in noted)
    try:
        turn = run_turn(ctx, "url-fetched", prompt, tty=tty)
    except ChildTimeout as exc:  # the page that never answers held the turn: no time limit
        raise CheckFailed(ctx.say("url.hung", url=noted[-1], seconds=round(exc.timeout)),
                          expected=ctx.say("url.time_limit"), seen=ctx.evidence(exc.result)) from None
    methods = pages.gets(doc)
    request = expect_sent(ctx, turn, prompt)
    if methods != ["GET"]:
        raise CheckFailed(ctx.say("url.not_one_get", url=doc_url), expected="GET", seen=", ".join(methods) or "-")
    text = text_of(user_content(request))
    for p in paragraphs + [amp]:
        if p not in text:
            raise CheckFailed(ctx.say("url.text_missing", url=doc_url), expected=shown(p, 120), seen=shown(text, 400))
    injected = text.replace(prompt, "")
    for bad, what in ((secret_script, "script"), (secret_style, "style"), ("<p>", "<p>"), ("</", "</"),
                      ("&amp;", "&amp;"), (secret_404, "404")):
        if bad in injected:
            raise CheckFailed(ctx.say("url.markup_sent", what=what), seen=shown(injected, 400))
    told = turn.said + ("" if turn.tty else turn.result.stdout)  # on a terminal both streams are the screen
    for url in noted:
        if url not in told:
            raise CheckFailed(ctx.say("url.no_note", url=url), seen=shown(turn.said, 400))


# --------------------------------------------------------------------------- 4

IMAGE_KINDS = [  # every image type the sheet names: suffix, media type, the file's first bytes
    (".png", "image/png", b"\x89PNG\r\n\x1a\n"), (".jpg", "image/jpeg", b"\xff\xd8\xff\xe0"),
    (".jpeg", "image/jpeg", b"\xff\xd8\xff\xe1"), (".gif", "image/gif", b"GIF89a"),
    (".webp", "image/webp", b"RIFF\x00\x10\x00\x00WEBPVP8 "),
]
MAX_IMAGE_BYTES = 4 * 1024 * 1024  # the sheet's cap on one image: an image over it is a note, not sent


def image_bytes(rng, signature: bytes, size: tuple[int, int] = (200, 3000)) -> bytes:
    body = rng.randbytes(rng.randint(*size))
    return signature + b"\xff\xfe\x00" + body  # never valid UTF-8


def test_image_part(ctx):
    """@image.png (and .jpg, .jpeg, .gif, .webp) sends the user message as a list of parts: the text first, then one image_url part per image whose data URL holds the file's exact base64 and its type."""
    rng = ctx.rng("image-part")
    kinds = list(IMAGE_KINDS)
    rng.shuffle(kinds)
    images = [(f"{rng.choice(['', 'pics/'])}{token(rng)}{suffix}", kind, image_bytes(rng, signature))
              for suffix, kind, signature in kinds]
    big_suffix, _, big_signature = rng.choice(IMAGE_KINDS)
    big = f"{token(rng)}{big_suffix}"
    big_data = image_bytes(rng, big_signature, (MAX_IMAGE_BYTES, MAX_IMAGE_BYTES + 4096))
    note, note_text = f"{token(rng)}.txt", file_text(rng, (1, 2))
    files = {name: data for name, _, data in images}
    files[note], files[big] = note_text, big_data
    refs = [f"@{name}" for name, _, _ in images]
    refs.insert(rng.randrange(len(refs) + 1), f"@{big}")
    prompt = f"{mixed_text(rng, (2, 4))} {' '.join(refs[:2])} @{note} {' '.join(refs[2:])}"
    turn = run_turn(ctx, "image-part", prompt, files)
    content = user_content(expect_sent(ctx, turn, prompt))
    if not isinstance(content, list) or not content:
        raise CheckFailed(ctx.say("image.not_parts"), expected='[{"type": "text", ...}, {"type": "image_url", ...}]',
                          seen=shown(repr(content), 200))
    first = content[0]
    if not (isinstance(first, dict) and first.get("type") == "text" and prompt in str(first.get("text", ""))):
        raise CheckFailed(ctx.say("image.text_first"), seen=shown(repr(first), 200))
    urls = [p.get("image_url", {}).get("url") if isinstance(p.get("image_url"), dict) else None
            for p in content if isinstance(p, dict) and p.get("type") == "image_url"]
    for name, kind, data in images:
        want = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
        if urls.count(want) != 1:
            near = next((u for u in urls if isinstance(u, str) and u.startswith(f"data:{kind}")), None)
            raise CheckFailed(ctx.say("image.no_part", name=name, count=urls.count(want)), expected=shown(want, 80),
                              seen=shown(str(near or urls), 120))
    if note_text not in text_of(content):
        raise CheckFailed(ctx.say("image.text_lost", name=note), seen=shown(text_of(content), 300))
    big_head = base64.b64encode(big_data[:3000]).decode("ascii")
    if len(urls) != len(images) or any(isinstance(u, str) and big_head in u for u in urls):
        raise CheckFailed(ctx.say("image.over_cap_sent", name=big, size=len(big_data), cap=MAX_IMAGE_BYTES),
                          expected=ctx.say("image.over_cap_note"), seen=f"{len(urls)} image_url parts")
    told = turn.result.stderr
    if big not in told or any(line.strip().startswith(f"injected: {big} ") for line in told.splitlines()):
        raise CheckFailed(ctx.say("image.over_cap_no_note", name=big, size=len(big_data)), seen=shown(told, 300))


# --------------------------------------------------------------------------- 5

def out_of_order(rng, items: list[str]) -> list[str]:
    """`items` (distinct, at least three) shuffled into an order that is neither sorted nor reversed."""
    items = list(items)
    while items in (sorted(items), sorted(items, reverse=True)):
        rng.shuffle(items)
    return items


def test_not_a_reference(ctx):
    """E-mail addresses, @@x and anything in back-quotes or a fenced block are not references, and trailing punctuation is not part of one: @calc.py, (see @x.py) @y.txt."""
    rng = ctx.rng("not-a-reference")
    # One message in each voice (plain English, one other script, mixed), so a rule kept only for
    # text that looks generated fails on every seed; one of them, drawn, on a terminal of its own,
    # as a person types it, the others on pipes: the rule holds whoever is watching.
    spoken = voices(rng)
    on_terminal = rng.randrange(len(spoken))
    for n, voice in enumerate(spoken):
        not_a_reference_in(ctx, rng, voice, f"not-a-reference-{n + 1}", tty=n == on_terminal)


def not_a_reference_in(ctx, rng, voice: str, label: str, tty: bool) -> None:
    """One message whose words are in `voice`, with every case of the rule in it."""
    host, x, span, fenced = f"{token(rng)}.com", token(rng), f"{token(rng)}.py", f"{token(rng)}.py"
    decoys = {host: file_text(rng, (1, 1)), x: file_text(rng, (1, 1)), "@" + x: file_text(rng, (1, 1)),
              span: file_text(rng, (1, 1)), fenced: file_text(rng, (1, 1))}
    stems = out_of_order(rng, [token(rng) for _ in range(5)])  # typed neither in name order nor in its reverse
    comma, paren, dot, bang, glued = (f"{stems[0]}.py", f"{stems[1]}.md", f"{stems[2]}.txt",
                                      f"{stems[3]}.{rng.choice(['json', 'toml'])}", f"{stems[4]}.py")
    real = {comma: file_text(rng, (1, 3)), paren: file_text(rng, (1, 3)), dot: file_text(rng, (1, 3)),
            bang: file_text(rng, (1, 3)), glued: file_text(rng, (1, 3))}
    opener, closer = rng.choice(["()", "[]", "{}"])  # an e-mail, then at once a reference a bracket starts
    prompt = (f"{voiced(rng, voice, (2, 3))} {token(rng)}@{host} @{comma}, (see @{paren}) "
              f"@@{x} `@{span}` and @{dot}. {voiced(rng, voice, (1, 3))} [@{bang}]!\n"
              f"{token(rng)}@{token(rng)}{opener}@{glued}{closer} {voiced(rng, voice, (1, 2))}\n"
              f"```\n@{fenced}\n```\n")
    turn = run_turn(ctx, label, prompt, {**decoys, **real}, tty=tty)
    request = expect_sent(ctx, turn, prompt)
    text, sent = text_of(user_content(request)), everything(request)
    for name, body in decoys.items():
        if body.strip() in text or body.strip() in sent:
            raise CheckFailed(ctx.say("refs.decoy_injected", name=name), expected=ctx.say("refs.not_one"),
                              seen=shown(body, 100))
    for name, body in real.items():
        if body not in text:
            raise CheckFailed(ctx.say("refs.real_lost", ref=f"@{name}"), expected=shown(body, 100),
                              seen=shown(text, 300))
    where = [text.find(body) for body in real.values()]  # `real` is in the order the references were typed
    if where != sorted(where):
        arrived = [name for _, name in sorted(zip(where, real))]
        raise CheckFailed(ctx.say("refs.order"), expected=", ".join(real), seen=", ".join(arrived))
    told = turn.said
    for name in (host, span, fenced, f"@{x}"):
        if name in told:
            raise CheckFailed(ctx.say("refs.decoy_noted", name=name), seen=shown(told, 300))


# --------------------------------------------------------------------------- 6

def test_path_escape_refused(ctx):
    """@../x, an absolute path elsewhere and a symlink inside that points out are refused with a note and none of their text reaches the model."""
    rng = ctx.rng("path-escape-refused")
    ws = ctx.workspace("path-escape-refused")
    outside_dir = ws.parent / f"out{token(rng)}"
    outside_dir.mkdir()
    secrets = {}
    for label in ("dotdot", "absolute", "link"):
        secret = marker(rng, "s")
        path = ws.parent / f"{token(rng)}.txt"
        path.write_text(f"{mixed_text(rng)} {secret}\n", encoding="utf-8")
        secrets[label] = (path, secret)
    hidden = marker(rng, "h")
    (outside_dir / f"{hidden}.txt").write_text("x", encoding="utf-8")
    link, dlink = f"{token(rng)}.txt", f"l{token(rng)}"
    symlink(ws / link, secrets["link"][0])
    symlink(ws / dlink, outside_dir, directory=True)
    sub, inside = f"s{token(rng)}", f"{token(rng)}.txt"
    inside_text = file_text(rng, (1, 3))
    (ws / sub).mkdir()
    refs = [f"@../{secrets['dotdot'][0].name}", f"@{secrets['absolute'][0]}", f"@{link}", f"@{dlink}/",
            f"@{sub}/../{inside}"]
    rng.shuffle(refs)
    prompt = f"{mixed_text(rng, (2, 3))} " + " ".join(refs)
    turn = run_turn(ctx, "path-escape-refused", prompt, {inside: inside_text}, workspace=ws)
    request = expect_sent(ctx, turn, prompt)
    sent = everything(request)
    for label, (path, secret) in secrets.items():
        if secret in sent:
            raise CheckFailed(ctx.say("escape.read", what=ctx.say(f"escape.{label}"), path=str(path)),
                              expected=ctx.say("escape.refused"), seen=secret)
    if hidden in sent:
        raise CheckFailed(ctx.say("escape.listed", ref=f"@{dlink}/"), expected=ctx.say("escape.refused"), seen=hidden)
    if inside_text not in text_of(user_content(request)):
        raise CheckFailed(ctx.say("escape.inside_lost", ref=f"@{sub}/../{inside}"), expected=shown(inside_text, 100),
                          seen=shown(text_of(user_content(request)), 300))


# --------------------------------------------------------------------------- 7

def test_cap_declared(ctx):
    """A file larger than the cap is cut to it, with the cut declared in what the model reads (the original size named) and its head kept."""
    rng = ctx.rng("cap-declared")
    big_lines = []
    while sum(map(len, big_lines)) < rng.randint(60000, 120000):
        big_lines.append(f"{mixed_text(rng, (6, 14))} {marker(rng)}\n")
    big, small = "".join(big_lines), file_text(rng, (20, 40))
    bname, sname = f"{token(rng)}.log", f"{token(rng)}.py"
    prompt = f"{mixed_text(rng, (2, 3))} @{bname} @{sname}"
    turn = run_turn(ctx, "cap-declared", prompt, {bname: big, sname: small})
    text = text_of(user_content(expect_sent(ctx, turn, prompt)))
    injected = text.replace(prompt, "", 1).replace(small, "", 1)
    if len(injected) > CAP_BOUND:
        raise CheckFailed(ctx.say("cap.not_cut", name=bname, size=len(big), bound=CAP_BOUND),
                          expected=f"<= {CAP_BOUND}", seen=str(len(injected)))
    if big[:200] not in text:
        raise CheckFailed(ctx.say("cap.head_lost", name=bname), expected=shown(big[:200], 100), seen=shown(text, 300))
    if str(len(big)) not in injected:
        raise CheckFailed(ctx.say("cap.undeclared", name=bname, size=len(big)), expected=str(len(big)),
                          seen=shown(injected, 300))
    if small not in text:
        raise CheckFailed(ctx.say("cap.small_cut", name=sname, size=len(small)), seen=shown(text, 300))


# --------------------------------------------------------------------------- 8

BILL_LINE = re.compile(r"^injected: (\S+) (\d+) chars ≈ (\d+) tokens")
TOTAL_LINE = re.compile(r"^injected: total (\d+) refs?, (\d+) chars ≈ (\d+) tokens")


def pad_narrow(text: str, remainder: int) -> str:
    """`text` with dots added so that its count of narrow characters is `remainder` modulo 4."""
    while sum(1 for ch in text if ord(ch) < 0x0800) % 4 != remainder:
        text += "."
    return text


# Each class of the estimate, with the code points on both sides of its boundary, at least
# twice: ASCII; two-byte UTF-8 from U+0080 (accents, Greek, Cyrillic, Hebrew, Arabic) up to
# U+07FF, the last narrow one; U+0800, the first wide one, then CJK and emoji (a flag is two
# code points). Twice, because one character put on the wrong side of a boundary moves
# ceil(narrow / 4) + wide by a token only for some remainders of narrow; two always do.
NARROW_TWO_BYTE = ["é", "ÿ", "Ā", "α", "ж", "ש", "ع", "\u07ff"]
WIDE = ["\u0800", "数", "🙂", "🚀", "🇯🇵"]


def two_byte_and_wide(rng) -> str:
    chars = [ch for ch in NARROW_TWO_BYTE + WIDE for _ in range(2)]
    chars += [rng.choice(NARROW_TWO_BYTE + WIDE + ["x", " "]) for _ in range(rng.randint(10, 60))]
    rng.shuffle(chars)
    return "".join(chars)


def test_bill_printed(ctx):
    """Each injected reference prints `injected: REF N chars ≈ T tokens` and a total line, N exact and T by the documented estimate (CJK and emoji too), and the log's injected event, before the user message, holds the same figures."""
    # Every draw: an ASCII file, a CJK file, one of two-byte characters, U+07FF and U+0800,
    # CJK and emoji (two_byte_and_wide); two of them with a quarter token left over, so the
    # total is the lines' sum and not an estimate of the joined texts; and a missing reference, which is not billed.
    rng = ctx.rng("bill-printed")
    files = {
        f"{token(rng)}.py": "".join(f"{token(rng, 8)} = {rng.randint(0, 999)}  # ascii only\n" for _ in range(rng.randint(3, 9))),
        f"{token(rng)}.md": "".join(f"数据{rng.choice('库表列行')} {mixed_text(rng)}\n" for _ in range(rng.randint(2, 6))),
        f"{token(rng)}.txt": two_byte_and_wide(rng),
    }
    for name in list(files)[:2]:  # a quarter token left over in two files: a total re-estimated from the
        files[name] = pad_narrow(files[name], 1)  # joined texts is then smaller than the sum of the lines
    missing = f"{token(rng)}.py"
    names = list(files)
    rng.shuffle(names)
    prompt = f"{mixed_text(rng, (2, 3))} " + " ".join(f"@{n}" for n in names) + f" @{missing}"
    # The bill as a person at a terminal sees it (a terminal of its own), then as a script reads it (pipes).
    for tty in (True, False):
        judge_bill(ctx, run_turn(ctx, "bill-printed", prompt, files, tty=tty), prompt, files, list(names))


def judge_bill(ctx, turn, prompt: str, files: dict[str, str], names: list[str]) -> None:
    """The bill's lines, its total and the injected event of one turn (`names` as referenced)."""
    sent = text_of(user_content(expect_sent(ctx, turn, prompt)))
    # The bill follows what was injected, in the order the message carries it (the order of
    # the references is find_refs's, E1, and not-a-reference's to judge).
    where = {n: sent.find(files[n]) for n in names}
    if all(at >= 0 for at in where.values()):
        names.sort(key=where.__getitem__)
    lines = [line.strip() for line in turn.said.splitlines()]
    billed = [m.groups() for m in map(BILL_LINE.match, lines) if m and m.group(1) != "total"]
    want = [(n, str(len(files[n])), str(estimate(files[n]))) for n in names]
    if billed != want:
        raise CheckFailed(ctx.say("bill.lines"), expected="; ".join(f"injected: {n} {c} chars ≈ {t} tokens" for n, c, t in want),
                          seen="; ".join(f"injected: {n} {c} chars ≈ {t} tokens" for n, c, t in billed) or shown(turn.said, 300))
    totals = [m.groups() for m in map(TOTAL_LINE.match, lines) if m]
    total = (str(len(names)), str(sum(len(files[n]) for n in names)), str(sum(estimate(files[n]) for n in names)))
    if totals != [total]:
        raise CheckFailed(ctx.say("bill.total"), expected="injected: total {} refs, {} chars ≈ {} tokens".format(*total),
                          seen=str(totals) if totals else shown(turn.said, 300))
    events = turn.log_events()
    injected = [e for e in events if e.get("type") == "injected"]
    if len(injected) != 1:
        raise CheckFailed(ctx.say("bill.no_event", count=len(injected)), seen=", ".join(str(e.get("type")) for e in events))
    event = injected[0]
    refs = event.get("refs") if isinstance(event.get("refs"), list) else []
    got = [(r.get("ref"), r.get("chars"), r.get("tokens")) for r in refs if isinstance(r, dict)]
    if got != [(n, len(files[n]), estimate(files[n])) for n in names] or \
            (event.get("chars"), event.get("tokens")) != (int(total[1]), int(total[2])):
        raise CheckFailed(ctx.say("bill.event_figures"), expected=f"refs {want}, chars {total[1]}, tokens {total[2]}",
                          seen=shown(str(event), 300))
    users = [e for e in events if e.get("type") == "message" and isinstance(e.get("message"), dict)
             and e["message"].get("role") == "user"]
    if not users or not event.get("seq", 0) < users[0].get("seq", 0):
        raise CheckFailed(ctx.say("bill.event_after"), seen=", ".join(str(e.get("type")) for e in events))


# --------------------------------------------------------------------------- 9

def test_missing_is_a_note(ctx):
    """A reference to a missing file or directory is a note naming it, not a crash: the exit status is 0, the message is still sent with what was typed, and the references that do resolve are injected."""
    rng = ctx.rng("missing-is-a-note")
    gone_file, gone_dir, present = f"{token(rng)}.py", f"{token(rng)}/", f"{token(rng)}.txt"
    body = file_text(rng, (1, 3))
    refs = [f"@{gone_file}", f"@{gone_dir}", f"@{present}"]
    rng.shuffle(refs)
    prompt = f"{mixed_text(rng, (2, 3))} " + " ".join(refs) + f" {mixed_text(rng, (1, 2))}"
    turn = run_turn(ctx, "missing-is-a-note", prompt, {present: body})
    if "Traceback" in turn.result.stderr:
        raise CheckFailed(ctx.say("missing.crash"), seen=shown(turn.result.stderr[-400:], 400))
    text = text_of(user_content(expect_sent(ctx, turn, prompt)))
    if prompt not in text:
        raise CheckFailed(ctx.say("turn.typed_lost"), expected=prompt, seen=shown(text, 300))
    if body not in text:
        raise CheckFailed(ctx.say("missing.present_lost", ref=f"@{present}"), expected=shown(body, 100),
                          seen=shown(text, 300))
    for name in (gone_file, gone_dir.rstrip("/")):
        if name not in turn.result.stderr:
            raise CheckFailed(ctx.say("missing.no_note", ref=name), seen=shown(turn.result.stderr, 300))


# --------------------------------------------------------------------------- 10

def test_resume_sends_same(ctx):
    """A session resumed after the referenced file changed sends the injected text as it was logged, not the file as it is now, and injects nothing again."""
    rng = ctx.rng("resume-sends-same")
    name = f"{token(rng)}.md"
    before, after = file_text(rng, (2, 4)), file_text(rng, (2, 4))
    go_on = mixed_text(rng, (2, 4)).replace("@", "")
    with model_server() as server:
        first = run_turn(ctx, "resume-sends-same", f"{mixed_text(rng, (2, 3))} @{name}", {name: before}, server=server)
        request1 = expect_sent(ctx, first, "@" + name)
        if before not in text_of(user_content(request1)):
            raise CheckFailed(ctx.say("resume.first_lost", ref=f"@{name}"),
                              seen=shown(text_of(user_content(request1)), 300))
        second = run_turn(ctx, "resume-sends-same", go_on, {name: after}, workspace=first.workspace,
                          sessions=first.sessions, resume=True, server=server)
    request2 = expect_sent(ctx, second, go_on)
    sent = request1.messages
    if request2.messages[:len(sent)] != sent:
        raise CheckFailed(ctx.say("resume.not_same", count=len(sent)), expected=shown(str(sent[1:]), 200),
                          seen=shown(str(request2.messages[1:len(sent)]), 200))
    if after in everything(request2):
        raise CheckFailed(ctx.say("resume.reread", ref=f"@{name}"), seen=shown(after, 100))
