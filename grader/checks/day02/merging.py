"""Day 02: tool calls in fragments - the chunks a provider sends, and what they must merge into.

A provider streams one tool call as chunks that share an `index`: the first brings
`id` and `name` (and maybe the start of the arguments, or all of them, or
`"arguments": null`), the later ones more characters of the arguments JSON, with
`"id": ""` or no id at all. The arguments are cut anywhere: next to a space inside a
string, right after a backslash of an escape, inside a `\\uXXXX` escape.
"""

from __future__ import annotations

import json
import random

from grader.checkkit import CheckFailed
from grader.checkkit.draws import mixed_text

from .streams import call_id, cut, string_spaces, tool_args, tool_name


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-merge", "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": "grader", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _fragment(arguments, *, index: int = 0, id: str | None = None, name: str | None = None,
              blank_id: bool = True) -> dict:
    if id is not None:
        call = {"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
    else:
        call = {"index": index, "function": {"arguments": arguments}}
        if blank_id:
            call["id"] = ""
    return _chunk({"tool_calls": [call]})


def awkward_cuts(rng: random.Random, text: str, extra: int) -> list[str]:
    """`text` cut next to spaces inside strings, right after backslashes, inside \\u escapes, and at
    random places."""
    spaces = string_spaces(text)
    spots = rng.sample(spaces, min(2, len(spaces))) + [i + 1 for i in rng.sample(spaces, min(2, len(spaces)))]
    slashes = [i + 1 for i, ch in enumerate(text) if ch == "\\"]
    spots += rng.sample(slashes, min(3, len(slashes)))
    escapes = [i + rng.randrange(2, 6) for i in range(len(text)) if text.startswith("\\u", i)]
    spots += rng.sample(escapes, min(2, len(escapes)))
    spots += [rng.randrange(1, len(text)) for _ in range(extra)]
    points = sorted(set(p for p in spots if 0 < p < len(text)))
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def one_call_cases(rng: random.Random) -> list[tuple[str, tuple[str, str, dict], list[dict]]]:
    """(what: a key of messages.toml, (id, name, args), the provider's chunks) for one call, sent in every way providers do."""
    cases = []
    shapes = [("what.only_id_and_name", "empty"),  # what: keys of messages.toml
              ("what.start_of_arguments", "start"),
              ("what.all_arguments_first", "whole"),
              ("what.arguments_null", "null"),
              ("what.escaped_arguments", "escaped")]
    for what, shape in shapes:
        call = (call_id(rng), tool_name(rng), tool_args(rng))
        text = json.dumps(call[2], ensure_ascii=shape == "escaped")
        parts = awkward_cuts(rng, text, rng.randint(2, 6)) if shape != "whole" else [text]
        first = {"empty": "", "null": None}.get(shape, parts[0])
        rest = parts if shape in ("empty", "null") else parts[1:]
        chunks = [_chunk({"role": "assistant", "content": ""})]
        if rng.random() < 0.5:
            chunks += [_chunk({"content": piece}) for piece in cut(rng, mixed_text(rng, (3, 6)), 2)]
        chunks.append(_fragment(first, id=call[0], name=call[1]))
        blank = rng.random() < 0.7
        chunks += [_fragment(part, blank_id=blank) for part in rest]
        chunks += [_chunk({}, "tool_calls"),
                   {"id": "chatcmpl-merge", "object": "chat.completion.chunk", "choices": [],
                    "usage": {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13}}]
        cases.append((what, call, chunks))
    return cases


def merged(ctx, cases: list[list[dict]]) -> list[dict]:
    """The harness's answer for each case (calls merged by the lab's merge_chunk)."""
    return ctx.harness_answers("merge", {"cases": cases}, count=len(cases), calls="merge_chunk")


def call_problem(say, what: str, expected: tuple[str, str, dict], seen: dict) -> CheckFailed | None:
    """What is wrong with one merged call (id, name, arguments), or None."""
    call_id_, name, args = expected
    if seen.get("name") != name:
        return CheckFailed(say("merge.name_wrong", what=what, seen=seen.get("name")), expected=name,
                           seen=seen.get("name"))
    if seen.get("problem") or seen.get("args") != args:
        return CheckFailed(say("merge.args_wrong", what=what, name=name),
                           expected=json.dumps(args, ensure_ascii=False),
                           seen=seen.get("problem") or json.dumps(seen.get("args"), ensure_ascii=False))
    if seen.get("id") != call_id_:
        return CheckFailed(say("merge.id_wrong", what=what, name=name, seen=seen.get("id")), expected=call_id_,
                           seen=seen.get("id"))
    return None
