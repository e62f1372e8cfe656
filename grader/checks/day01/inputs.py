"""Day 01: what the checks type, send and answer, drawn per run from `ctx.rng(...)`.

Names, prompts, replies, server error messages, model names and keys all come from
the run's seed, so no lab can pass by knowing them in advance; `--seed N` draws the
same ones again.

Edge cases every draw holds (not only some seeds; tests/checks/day01 asserts them):

* `conversation`: one reply is empty and another has white space (spaces, tabs, line
  breaks) at both ends, both before the last turn, so a later request must carry them
  back exactly (history-carried, system-prompt-once); with `repeat`, one user line is
  said twice, at turns far apart;
* `padded_text`: white space at both ends, a line break among it at the end, so the
  one-shot's output is compared byte for byte, never after a strip (reply-parsed);
* repl-edges gives a name before Ctrl-C and asks for it after, so the answer needs the
  conversation from before the Ctrl-C.
"""

from __future__ import annotations

import json
import random

from grader.checkkit.draws import ASCII_WORDS, CJK_WORDS, EMOJI, mixed_text
from grader.checkkit.replies import Reply, reply_json

# Names the mock can take back: no white space and none of . , ! ? (mca/gateway/mock_scenarios.py).
GIVEN = ("Ada", "Grace", "Linus", "Barbara", "Alan", "Edsger", "Margaret", "Dennis", "Frances", "Zoë",
         "李娜", "王芳", "張偉", "さくら", "민준", "陈静", "鈴木", "지우", "Ólafur", "Nguyễn")
SUFFIX = ("", "7", "42", "-Li", "_2", "子", "🙂", "é")

NO_RECORD = "I have no record of your name in this conversation."
ASK_NAME = "what is my name?"


def nice_to_meet(name: str) -> str:
    return f"Nice to meet you, {name}."


def your_name_is(name: str) -> str:
    return f"Your name is {name}."


def random_name(rng: random.Random) -> str:
    """A name to tell the mock: ASCII, accented, CJK or Hangul, often with a random tail."""
    return rng.choice(GIVEN) + rng.choice(SUFFIX) + (str(rng.randrange(10, 100)) if rng.random() < 0.5 else "")


def typed_line(rng: random.Random) -> str:
    """A line a person could type at the prompt: mixed ASCII, CJK and emoji, one line,
    never a slash command, never about names (the mock answers it with its help line)."""
    return " ".join(mixed_text(rng).replace("\n", " ").split())


def text(rng: random.Random) -> str:
    """Any message text, quotes, backslashes and line breaks included."""
    return mixed_text(rng)


def plain_text(rng: random.Random, words: tuple[int, int] = (4, 8)) -> str:
    """ASCII, CJK and emoji words only: nothing JSON has to escape, so the text reads the
    same in a raw body and in the parsed message."""
    count = rng.randint(*words)
    pieces = [rng.choice(ASCII_WORDS), rng.choice(CJK_WORDS), rng.choice(EMOJI)]
    pieces += [rng.choice(rng.choice((ASCII_WORDS, CJK_WORDS, EMOJI))) for _ in range(count - 3)]
    rng.shuffle(pieces)
    return " ".join(pieces)


# What separates the words of a server's error message: it may run over several lines.
BREAKS = ("\n", "\r\n", "\n\n", " \n  ", "\t", "\n\t", "  ")


def error_text(rng: random.Random) -> str:
    """A server's error message over several lines: plain words (ASCII, CJK, emoji) joined by
    line breaks (LF, CRLF, blank lines), tabs and runs of spaces; always at least one newline."""
    words = plain_text(rng, (5, 9)).split(" ")
    gaps = [rng.choice(BREAKS) if rng.random() < 0.5 else " " for _ in words[1:]]
    gaps[rng.randrange(len(gaps))] = rng.choice(("\n", "\r\n", "\n\n"))
    return words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:]))


SERVERS = ("nginx", "cloudflare", "envoy", "Apache/2.4.58 (Ubuntu)", "openresty", "awselb/2.0")
PHRASES = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def html_error(rng: random.Random) -> tuple[int, str]:
    """(status, body): the HTML page a proxy in front of the API answers with, over many lines."""
    code = rng.choice(sorted(PHRASES))
    title = f"{code} {PHRASES[code]}"
    newline = rng.choice(("\n", "\r\n"))
    lines = ["<html>", f"<head><title>{title}</title></head>", "<body>", f"<center><h1>{title}</h1></center>",
             f"<p>{plain_text(rng, (3, 5))}</p>", f"<hr><center>{rng.choice(SERVERS)}</center>", "</body>", "</html>"]
    if rng.random() < 0.5:
        lines.insert(0, "<!DOCTYPE html>")
    return code, newline.join(lines) + newline


def text_error(rng: random.Random) -> tuple[int, str]:
    """(status, body): a plain-text error body, as load balancers and dev servers send, with a line break."""
    code = rng.choice(sorted(PHRASES))
    first = rng.choice(("upstream connect error or disconnect/reset before headers", "no healthy upstream",
                        "upstream request timeout", "Internal Server Error", "model backend unavailable"))
    stop, end = rng.choice((".", ":", "")), rng.choice(("", "\n", "\r\n"))
    return code, f"{first}{stop}\n{plain_text(rng, (3, 5))}{end}"


def model_name(rng: random.Random) -> str:
    """A model id as providers spell them, sometimes with an organisation and a slash."""
    family = rng.choice(("gpt", "qwen", "llama", "mistral", "deepseek", "glm"))
    name = f"{family}-{rng.randrange(2, 9)}.{rng.randrange(10)}-{rng.getrandbits(24):06x}"
    return f"{rng.choice(('acme', 'open-lab', 'org'))}/{name}" if rng.random() < 0.5 else name


def api_key(rng: random.Random) -> str:
    return f"sk-{rng.getrandbits(96):024x}"


# White space a reply may start or end with (models often end with a line break).
LEADING = (" ", "  ", "\n", " \n", "\t", "\n\n  ")
TRAILING = ("\n", " ", "  \n", "\n\n", "\t\n", " \n ")


def padded_text(rng: random.Random) -> str:
    """Any text with white space at both ends, always a line break among what ends it."""
    end = rng.choice(TRAILING)
    return rng.choice(LEADING) + text(rng) + (end if "\n" in end else end + "\n")


def conversation(rng: random.Random, turns: int, repeat: bool = False) -> tuple[list[str], list[str]]:
    """What the user says and what the model answers, turn by turn (any text), `turns` >= 3.

    Every draw holds an empty reply and a reply with white space at both ends, at two of
    the turns before the last (the last reply is never carried back); with `repeat`, the
    user says an earlier line again (turn 3 or later repeats turn 1 or 2)."""
    users, replies = [text(rng) for _ in range(turns)], [text(rng) for _ in range(turns)]
    if repeat:
        again, earlier = rng.randrange(2, turns), rng.randrange(0, 2)  # people repeat themselves
        users[again], replies[again] = users[earlier], replies[earlier]
    empty, padded = rng.sample(range(turns - 1), 2)
    replies[empty], replies[padded] = "", padded_text(rng)
    return users, replies


def request_messages(rng: random.Random) -> list[dict]:
    """A history to put into one request: the system prompt, then turns ending with a user."""
    messages = [{"role": "system", "content": text(rng)}]
    for _ in range(rng.randint(0, 3)):
        messages += [{"role": "user", "content": text(rng)}, {"role": "assistant", "content": text(rng)}]
    return messages + [{"role": "user", "content": text(rng)}]


def reply_without_content(rng: random.Random, model: str) -> tuple[Reply, str]:
    """A 200 chat completion whose message has no `content` key at all (providers that leave
    null fields out do this), and the message's shape as a key of messages.toml. The contract's null content
    is an empty reply; a content that is not there is null content too."""
    call = {"id": f"call_{rng.getrandbits(40):010x}", "name": rng.choice(("read_file", "search", "list_dir")),
            "arguments": {"path": f"{rng.choice(ASCII_WORDS)}/{rng.choice(CJK_WORDS)}.py"}}
    shapes = [("what.only_role", {}, None), ("what.role_refusal", {"refusal": None}, None),  # messages.toml keys
              ("what.role_call", {}, [call])]
    what, extra, calls = rng.choice(shapes)
    body = reply_json("", tool_calls=calls, model=model).json()
    message = body["choices"][0]["message"]
    del message["content"]
    message.update(extra)
    return Reply(200, json.dumps(body, ensure_ascii=False).encode("utf-8"), {"Content-Type": "application/json"}), what
